package org.perftrack.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.web.ApiProblem;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RestController;

/** The feature packages' boundaries (STYLE.md: packages per feature, API beside its page, one Regression). */
class BoundariesTest {

  static final JavaClasses SERVER = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("org.perftrack.server");

  @Test
  void featurePackagesHaveNoCycles() {
    slices().matching("org.perftrack.server.(*)..").should().beFreeOfCycles().check(SERVER);
  }

  @Test
  void controllersArePackagePrivateAndNobodyCallsThem() {
    classes().that().areAnnotatedWith(RestController.class).or().areAnnotatedWith(Controller.class)
        .should().notBePublic().check(SERVER);
    classes().should(notUseControllersOfOtherPackages())
        .because("a controller is its feature's edge; other features use its service").check(SERVER);
  }

  @Test
  void theDomainExceptionsKnowNoHttpAndTheServicesThrowThemInsteadOfHttpErrors() {
    classes().that().resideInAPackage("..problems..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "..problems..").check(SERVER);
    noClasses().that().resideInAnyPackage("..detection..", "..regressions..", "..compare..", "..runs..", "..series..")
        .should().dependOnClassesThat().areAssignableTo(ApiProblem.class).check(SERVER);
  }

  @Test
  void theRegressionRecordIsDetectionsAndItsReadersUseIt() {
    classes().that().haveSimpleName("Regression").should().resideInAPackage("..detection").check(SERVER);
    noClasses().that().resideOutsideOfPackage("..detection..").should().dependOnClassesThat()
        .haveSimpleName("RegressionStore").check(SERVER);
  }

  private static ArchCondition<JavaClass> notUseControllersOfOtherPackages() {
    return new ArchCondition<>("not use a controller of another package") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        for (Dependency d : item.getDirectDependenciesFromSelf()) {
          JavaClass target = d.getTargetClass();
          boolean controller = target.getPackageName().startsWith("org.perftrack.server")
              && (target.isAnnotatedWith(RestController.class) || target.isAnnotatedWith(Controller.class));
          if (controller && !target.getPackageName().equals(item.getPackageName())) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    };
  }

  private static final Pattern WRITES_REGRESSION = Pattern.compile(
      "(?i)\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+regression\\b");

  @Test
  void onlyDetectionWritesTheRegressionTable() throws IOException {
    Path main = Path.of("src/main/java/org/perftrack/server");
    assertThat(main).isDirectory();
    List<Path> writers;
    try (Stream<Path> files = Files.walk(main)) {
      writers = files.filter(p -> p.toString().endsWith(".java")).filter(BoundariesTest::writesRegression).toList();
    }
    assertThat(writers).as("files with SQL that writes the regression table").isNotEmpty()
        .allMatch(p -> main.relativize(p).startsWith("detection"));
  }

  private static boolean writesRegression(Path p) {
    try {
      return WRITES_REGRESSION.matcher(Files.readString(p)).find();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
