package org.perftrack.server.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
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
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Controller;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.RestController;

/**
 * The feature packages' boundaries (STYLE.md: packages per feature, API beside its page, one Regression): layers
 * (stats under detection under everything else; pages and APIs over services), one owner per table, one record
 * per shared concept, one meaning per public type name, detection publishing only what others use. Each rule fails
 * on a planted violation (a stats class calling versions, a detection class calling web or throwing
 * ResponseStatusException, a service taking a controller, a record named *Summary* in runs, SQL reading regression
 * in products, a public nested type named Regressions in runs, a public detection class nobody else uses, a
 * PlantedController and a plain PlantedHelperApi in products, a page controller in pages, a products page at
 * /products/{product}/summaries while /api/v1/summaries is in summaries).
 */
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
  void anApiClassEndsInApiAndAPageClassInPages() {
    CompositeArchRule.of(classes().that().areAnnotatedWith(RestController.class).should()
            .haveSimpleNameEndingWith("Api").because("the JSON edge of a feature is its …Api class"))
        .and(classes().that().areAnnotatedWith(Controller.class).should().haveSimpleNameEndingWith("Pages")
            .because("the HTML edge of a feature is its …Pages class"))
        .and(classes().that().areTopLevelClasses().and().haveSimpleNameEndingWith("Api").should()
            .beAnnotatedWith(RestController.class).because("…Api means a REST controller"))
        .and(classes().that().areTopLevelClasses().and().haveSimpleNameEndingWith("Pages").should()
            .beAnnotatedWith(Controller.class).because("…Pages means a page controller"))
        .check(SERVER);
  }

  /** Packages of the shared web edge (formatting, filters, error handling): no feature's API or page lives there. */
  static final java.util.Set<String> EDGE_PACKAGES = java.util.Set.of("org.perftrack.server.pages",
      "org.perftrack.server.web");

  @Test
  void pagesAndApisLiveInTheirFeaturesPackageNotInTheSharedEdge() {
    classes().that().areAnnotatedWith(Controller.class).or().areAnnotatedWith(RestController.class).should()
        .resideOutsideOfPackages(EDGE_PACKAGES.toArray(String[]::new))
        .because("a page or an API lives in the package of its feature").check(SERVER);
  }

  @Test
  void aPageAndTheApiOfWhatItShowsShareAPackage() {
    List<Mapping> mappings = SERVER.stream().filter(BoundariesTest::isController)
        .flatMap(c -> Mapping.of(c.reflect()).stream()).toList();
    assertThat(mappings).as("the controllers' GET mappings").hasSizeGreaterThan(20);
    List<String> apart = new java.util.ArrayList<>();
    for (Mapping page : mappings.stream().filter(m -> !m.api()).toList()) {
      for (Mapping api : mappings.stream().filter(m -> m.api() && m.literals().equals(List.of(page.resource())))
          .toList()) {
        if (!api.owner().getPackageName().equals(page.owner().getPackageName())) {
          apart.add(page + " and " + api);
        }
      }
    }
    assertThat(apart).as("a page showing X (…/X[/{id}]) and the API of X (/api/v1/X[/{id}]) are in one package")
        .isEmpty();
  }

  /** One GET address a controller serves: its literal path segments, and whether it is under /api/v1. */
  record Mapping(Class<?> owner, String path, boolean api, List<String> literals) {

    /** What a page shows: its last literal segment without an extension (/products/{p}/series: series). */
    String resource() {
      String last = literals.isEmpty() ? "" : literals.get(literals.size() - 1);
      return last.contains(".") ? last.substring(0, last.indexOf('.')) : last;
    }

    static List<Mapping> of(Class<?> controller) {
      var type = org.springframework.core.annotation.AnnotatedElementUtils.findMergedAnnotation(controller,
          org.springframework.web.bind.annotation.RequestMapping.class);
      List<String> prefixes = type == null || type.path().length == 0 ? List.of("") : List.of(type.path());
      List<Mapping> out = new java.util.ArrayList<>();
      for (java.lang.reflect.Method m : controller.getDeclaredMethods()) {
        var rm = org.springframework.core.annotation.AnnotatedElementUtils.findMergedAnnotation(m,
            org.springframework.web.bind.annotation.RequestMapping.class);
        if (rm == null || !List.of(rm.method()).contains(org.springframework.web.bind.annotation.RequestMethod.GET)) {
          continue;
        }
        for (String prefix : prefixes) {
          for (String path : rm.path().length == 0 ? new String[] {""} : rm.path()) {
            String full = prefix + path;
            boolean api = full.startsWith("/api/v1/");
            List<String> literals = Stream.of((api ? full.substring("/api/v1".length()) : full).split("/"))
                .filter(seg -> !seg.isEmpty() && !seg.startsWith("{")).map(seg -> seg.replaceAll(":.*", ""))
                .toList();
            out.add(new Mapping(controller, full, api, literals));
          }
        }
      }
      return out;
    }

    @Override
    public String toString() {
      return owner.getName().replace("org.perftrack.server.", "") + " GET " + path;
    }
  }

  @Test
  void theDomainExceptionsKnowNoHttpAndTheServicesThrowThemInsteadOfHttpErrors() {
    classes().that().resideInAPackage("..problems..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "..problems..").check(SERVER);
    noClasses().that().resideInAnyPackage("..detection..", "..regressions..", "..compare..", "..runs..", "..series..",
            "..ingest..").should().dependOnClassesThat()
        .haveFullyQualifiedName("org.springframework.web.server.ResponseStatusException")
        .because("services and pages throw problems.*, mapped to HTTP in web/ApiExceptionHandler and pages/PageProblems")
        .check(SERVER);
  }

  @Test
  void theRegressionRecordIsDetectionsAndItsReadersUseIt() {
    classes().that().haveSimpleName("Regression").should().resideInAPackage("..detection").check(SERVER);
    noClasses().that().resideOutsideOfPackage("..detection..").should().dependOnClassesThat()
        .haveSimpleName("RegressionStore").check(SERVER);
  }

  @Test
  void theStatisticsKernelDependsOnNothingOfOurs() {
    classes().that().resideInAPackage("..server.stats..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "org.apache.commons.math3..", "..server.stats..")
        .because("stats is plain arithmetic on arrays that detection, compare and pages share").check(SERVER);
  }

  @Test
  void theChangePointModelIsPureArithmetic() {
    classes().that().resideInAPackage("..server.changepoint..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "org.apache.commons.math3..", "..server.stats..", "..server.changepoint..")
        .because("the model is plain arithmetic on a segment's samples: no database, no Spring").check(SERVER);
  }

  @Test
  void detectionDependsOnlyOnTheKernelVersionsProblemsTheDatabaseAndTheAuditLog() {
    classes().that().resideInAPackage("..server.detection..").should().onlyDependOnClassesThat(
            resideOutsideOfPackage("org.perftrack.server..")
                .or(resideInAnyPackage("..server.detection..", "..server.stats..", "..server.changepoint..",
                    "..server.versions..", "..server.problems..", "..server.db..", "..server.audit..")))
        .because("every other feature reads regressions through detection, never the other way").check(SERVER);
  }

  @Test
  void theAuditLogDependsOnNothingOfOurs() {
    classes().that().resideInAPackage("..server.audit..").should().onlyDependOnClassesThat(
            resideOutsideOfPackage("org.perftrack.server..").or(resideInAnyPackage("..server.audit..",
                "..server.problems..")))
        .because("every feature records its changes there (detection's triage and settings too)").check(SERVER);
  }

  @Test
  void detectionNeverThrowsAnHttpException() {
    noClasses().that().resideInAPackage("..server.detection..").should().dependOnClassesThat(
            assignableTo(org.springframework.web.ErrorResponse.class)
                .or(assignableTo(org.springframework.web.client.RestClientResponseException.class))
                .or(resideInAnyPackage("org.springframework.web.server..", "org.springframework.http..")
                    .and(simpleNameEndingWith("Exception"))))
        .because("detection says what is wrong with problems.*; the web edge picks the status").check(SERVER);
  }

  @Test
  void onlyPagesAndApisUseControllersAndServicesNeverDo() {
    classes().should(notCallAControllerUnlessOneItself())
        .because("pages and the API call services; a service that called a controller would turn the layers over")
        .check(SERVER);
  }

  @Test
  void aSharedConceptHasOneRecordAndItLivesInItsPackage() {
    classes().that().areRecords().and().haveSimpleNameContaining("Regression").should()
        .resideInAPackage("..server.detection").because("one Regression, published by detection").check(SERVER);
    classes().that().areRecords().and().haveSimpleNameContaining("Summary").should()
        .resideInAPackage("..server.summaries").because("one Summary, the summaries' own").check(SERVER);
  }

  @Test
  void aPublicTypeNameSaysOneThing() {
    java.util.Map<String, List<String>> byName = new java.util.TreeMap<>();
    SERVER.stream().filter(c -> c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC))
        .filter(c -> !c.isAnonymousClass())
        .forEach(c -> byName.computeIfAbsent(c.getSimpleName(), k -> new java.util.ArrayList<>()).add(c.getName()));
    List<String> topLevel = SERVER.stream().filter(JavaClass::isTopLevelClass)
        .filter(c -> c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC))
        .map(JavaClass::getSimpleName).toList();
    assertThat(topLevel.stream().filter(n -> byName.get(n).size() > 1).map(byName::get).toList())
        .as("a public type is named like another public one (three public Points once): name each for what it is")
        .isEmpty();
  }

  /**
   * What detection publishes: used by another package's main code, or by the evaluation harness (test code in
   * detection.eval, which drives the pure core directly). Anything else is package-private.
   */
  static final java.util.Set<String> DETECTION_API_FOR_THE_EVALUATION = java.util.Set.of("BatchRun", "Decision",
      "DetectionResult", "DetectionSettings", "Detector", "Reconciler", "RecordedRegression", "SeriesHistory",
      "SeriesUpdate", "Step", "VersionLevel", "VersionPoint");

  @Test
  void detectionPublishesOnlyWhatOthersUse() {
    List<String> unused = SERVER.stream().filter(JavaClass::isTopLevelClass)
        .filter(c -> c.getPackageName().equals("org.perftrack.server.detection"))
        .filter(c -> c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC))
        .filter(c -> !DETECTION_API_FOR_THE_EVALUATION.contains(c.getSimpleName()))
        .filter(c -> c.getDirectDependenciesToSelf().stream()
            .noneMatch(d -> !d.getOriginClass().getPackageName().equals(c.getPackageName())))
        .map(JavaClass::getSimpleName).toList();
    assertThat(unused).as("public detection types no other package uses: make them package-private").isEmpty();
  }

  @Test
  void everySettingsRecordIsValidatedAtStartUp() {
    classes().that().areAnnotatedWith(ConfigurationProperties.class).should().beAnnotatedWith(Validated.class)
        .andShould().beRecords().because("a bad setting must stop start-up naming the property (ConfigurationValidationTest)")
        .check(SERVER);
  }

  private static boolean isController(JavaClass c) {
    return c.getPackageName().startsWith("org.perftrack.server")
        && (c.isAnnotatedWith(RestController.class) || c.isAnnotatedWith(Controller.class));
  }

  /** A controller (or a class nested in one) may use controllers; nothing else may, annotations aside. */
  private static ArchCondition<JavaClass> notCallAControllerUnlessOneItself() {
    return new ArchCondition<>("not use a controller unless it is one") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        JavaClass top = item;
        while (top.getEnclosingClass().isPresent()) {
          top = top.getEnclosingClass().get();
        }
        if (isController(top)) {
          return;
        }
        for (Dependency d : item.getDirectDependenciesFromSelf()) {
          if (isController(d.getTargetClass()) && !d.getDescription().contains("annotation")) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    };
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

  /** Statements that read detection's tables. */
  private static final Pattern READS_DETECTION_TABLES = Pattern.compile(
      "(?i)\\b(FROM|JOIN)\\s+(regression|detection_point)\\b");

  @Test
  void onlyDetectionReadsItsTablesWithSql() throws IOException {
    Path main = Path.of("src/main/java/org/perftrack/server");
    List<String> readers;
    try (Stream<Path> files = Files.walk(main)) {
      readers = files.filter(p -> p.toString().endsWith(".java")).filter(p -> matches(p, READS_DETECTION_TABLES))
          .map(p -> main.relativize(p).toString().replace('\\', '/')).toList();
    }
    assertThat(readers).as("files with SQL that reads regression or detection_point").isNotEmpty();
    assertThat(readers).as("outside detection nobody reads regression or detection_point with SQL: use"
        + " detection.Regressions or detection.PointReads").allMatch(f -> f.startsWith("detection/"));
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
    return matches(p, WRITES_REGRESSION);
  }

  private static boolean matches(Path p, Pattern pattern) {
    try {
      return pattern.matcher(Files.readString(p)).find();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
