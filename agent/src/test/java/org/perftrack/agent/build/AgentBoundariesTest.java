package org.perftrack.agent.build;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The agent's packages form layers: the commands in {@code org.perftrack.agent} use {@code suite}, {@code shell},
 * {@code upload}, {@code config} and {@code text}, and none of those reaches back into the commands.
 */
class AgentBoundariesTest {

  private static final JavaClasses AGENT = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("org.perftrack.agent");

  @Test
  void packagesHaveNoCycles() {
    slices().matching("org.perftrack.(**)").should().beFreeOfCycles().check(AGENT);
  }

  @Test
  void noPackageReachesBackIntoTheCommands() {
    noClasses().that().resideOutsideOfPackage("org.perftrack.agent")
        .should().dependOnClassesThat().resideInAPackage("org.perftrack.agent")
        .check(AGENT);
  }

  @Test
  void textDependsOnNothingOfOurs() {
    noClasses().that().resideInAPackage("org.perftrack.agent.text..")
        .should().dependOnClassesThat().resideInAnyPackage("org.perftrack.agent", "org.perftrack.agent.config..",
            "org.perftrack.agent.shell..", "org.perftrack.agent.suite..", "org.perftrack.agent.upload..")
        .check(AGENT);
  }
}
