package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.server.changepoint.Claim;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.Segment;
import org.perftrack.server.changepoint.SegmentModel;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/**
 * The change-point model run once on a generated series' final versions ({@code model}: what the data say), and the
 * oracle beside it ({@code oracle}): the same change-point posterior given each series' true noise family and
 * parameters ({@link FamilyOracle}).
 */
final class BayesMethod {
  private final String name;
  private final boolean oracle;
  private final SegmentModel model;

  private BayesMethod(String name, boolean oracle, double claimProbability, int widest) {
    this.name = name;
    this.oracle = oracle;
    this.model = new SegmentModel(claimProbability, 0.02, org.perftrack.server.changepoint.StepRate.initial(), widest);
  }

  static BayesMethod model(double claimProbability, int widest) {
    return new BayesMethod("model", false, claimProbability, widest);
  }

  static BayesMethod oracle(double claimProbability, int widest) {
    return new BayesMethod("oracle", true, claimProbability, widest);
  }

  String name() {
    return name;
  }

  Posterior judge(LabeledSeries s) {
    if (!oracle) {
      List<Segment.Version> versions = new ArrayList<>();
      for (int k = 0; k < s.samples().length; k++) {
        versions.add(new Segment.Version("1." + k, List.of(s.samples()[k])));
      }
      return model.judge(new Segment(versions, 0));
    }
    return FamilyOracle.judge(model, s);
  }

  /** Each claim and candidate as the evaluation scores it (a rise is a regression when lower is better). */
  static List<Detected> detected(LabeledSeries s, List<Claim> claims) {
    return claims.stream().map(c -> new Detected(c.likeliest(),
        c.up() == (s.direction() == Direction.LOWER_IS_BETTER) ? Regression.Kind.REGRESSION
            : Regression.Kind.IMPROVEMENT, c.first(), c.last())).toList();
  }
}
