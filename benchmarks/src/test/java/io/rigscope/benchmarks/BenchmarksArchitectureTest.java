package io.rigscope.benchmarks;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The benchmarks module (docs/architecture.md, Modules): its packages have no cycle; the peer bench (peers) is over
 * the generator bench (generator); the analyzer's and the k6 importer's benchmarks (analyzer, k6) stand apart. It
 * reaches the analyzer through api, pipeline, series, attribution, decision and synthetic. Nothing in the
 * product modules on its class path (model, wire, localenv, generator, analyzer, importers, peers' common) depends
 * on it; rig's bench commands are its one user.
 */
@AnalyzeClasses(packages = "io.rigscope", importOptions = ImportOption.DoNotIncludeTests.class)
class BenchmarksArchitectureTest {

    private static final String P = "io.rigscope.benchmarks.";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.benchmarks.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule peersOverGeneratorTheOthersApart = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Peers").definedBy(P + "peers..")
            .layer("Generator").definedBy(P + "generator..")
            .layer("Analyzer").definedBy(P + "analyzer..")
            .layer("K6").definedBy(P + "k6..")
            .whereLayer("Peers").mayNotBeAccessedByAnyLayer()
            .whereLayer("Generator").mayOnlyBeAccessedByLayers("Peers")
            .whereLayer("Analyzer").mayNotBeAccessedByAnyLayer()
            .whereLayer("Analyzer").mayNotAccessAnyLayer()
            .whereLayer("K6").mayNotBeAccessedByAnyLayer()
            .whereLayer("K6").mayNotAccessAnyLayer();

    @ArchTest
    static final ArchRule noProductModuleDependsOnIt = noClasses()
            .that().resideOutsideOfPackage("io.rigscope.benchmarks..").should().dependOnClassesThat().resideInAPackage("io.rigscope.benchmarks..")
            .as("no product module depends on the benchmarks");

    @ArchTest
    static final ArchRule analyzerThroughItsFacesAndSyntheticSeries = noClasses()
            .that().resideInAPackage("io.rigscope.benchmarks..").should().dependOnClassesThat(resideInAPackage("io.rigscope.analyzer..").and(resideOutsideOfPackages(
                    "io.rigscope.analyzer.api..", "io.rigscope.analyzer.pipeline..", "io.rigscope.analyzer.series..",
                    "io.rigscope.analyzer.attribution..", "io.rigscope.analyzer.decision..",
                    "io.rigscope.analyzer.synthetic..")))
            .as("the benchmarks reach the analyzer through api, pipeline, series, attribution, decision, synthetic");

    @ArchTest
    static final ArchRule reachesNoRig = noClasses().that().resideInAPackage("io.rigscope.benchmarks..")
            .should().dependOnClassesThat().resideInAPackage("io.rigscope.rig..")
            .as("the benchmarks reach nothing of rig (its commands pass in what they need)");
}
