package io.rigscope.importers;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The importers' packages: no cycle; they reach the analyzer only through its faces (api, decision, report) and the
 * k6 threshold grammar (threshold); the k6 reader is below the evidence importers and the follower. The benchmark
 * lives in the benchmarks module; nothing here uses it.
 */
@AnalyzeClasses(packages = "io.rigscope.importers", importOptions = ImportOption.DoNotIncludeTests.class)
class ImportersArchitectureTest {

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.importers.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule analyzerOnlyThroughItsFaces = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope.analyzer..").and(resideOutsideOfPackages(
                    "io.rigscope.analyzer.api..", "io.rigscope.analyzer.decision..", "io.rigscope.analyzer.report..",
                    "io.rigscope.analyzer.threshold..")));

    @ArchTest
    static final ArchRule k6ReaderIsBelowTheOthers = noClasses().that().resideInAPackage("io.rigscope.importers.k6")
            .should().dependOnClassesThat().resideInAnyPackage("io.rigscope.importers.evidence..",
                    "io.rigscope.importers.k6.follow..");

    @ArchTest
    static final ArchRule usesNoBenchmark = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.rigscope.benchmarks..");

    @ArchTest
    static final ArchRule reachesNoRigNorGenerator = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("io.rigscope.rig..", "io.rigscope.generator..");
}
