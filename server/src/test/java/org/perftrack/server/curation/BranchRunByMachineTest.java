package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A machine's branch builds are found through an index on their machine: the delete confirmation's count and the
 * purge's delete do not read every branch build. The test database is small, so the planner is told to avoid
 * sequential scans; a plan that still reads branch_run without the index would scan it all on a large one.
 */
class BranchRunByMachineTest extends IntegrationTest {

  @Autowired
  private TransactionTemplate tx;

  @Test
  void theConfirmationsCountAndThePurgeFindABranchBuildByItsMachine() {
    assertThat(plan(CurationStore.MACHINE_BRANCHES, "some-machine")).contains("branch_run_machine_idx");
    assertThat(plan(Purge.BRANCH_RUNS_OF_MACHINE, 1L)).contains("branch_run_machine_idx");
  }

  private String plan(String sql, Object parameter) {
    return tx.execute(s -> {
      jdbc.sql("SET LOCAL enable_seqscan = off").update();
      List<String> lines = jdbc.sql("EXPLAIN " + sql).param(parameter).query(String.class).list();
      return String.join("\n", lines);
    });
  }
}
