package io.rigscope.analyzer;

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
 * The analyzer's packages (docs/architecture.md, Inside analyzer): no cycle between them, and each layer reached only
 * from above. The face first (api), then the live path (pipeline, series) and the report, then the judges (repeat
 * with its gates, attribution with its levers, scene, compare), the per-second statistics (second, freeze,
 * telemetry), the settings (config, threshold), and at the bottom the output values every judge produces and
 * every reader reads (decision: the decisions, what they carry, their codec and the JSON view, WireView), which
 * use no other analyzer package. The planted series (synthetic) stands apart:
 * it uses only the model, and no analyzer package uses it. The benchmarks live in the benchmarks module.
 */
@AnalyzeClasses(packages = "io.rigscope.analyzer", importOptions = ImportOption.DoNotIncludeTests.class)
class AnalyzerArchitectureTest {

    private static final String P = "io.rigscope.analyzer.";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.analyzer.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Api").definedBy(P + "api..")
            .layer("Live").definedBy(P + "pipeline..", P + "series..")
            .layer("Report").definedBy(P + "report..")
            .layer("Judges").definedBy(P + "repeat..", P + "attribution..", P + "scene..", P + "compare..")
            .layer("Seconds").definedBy(P + "second..", P + "freeze..", P + "telemetry..")
            .layer("Settings").definedBy(P + "config..", P + "threshold..")
            .layer("Decision").definedBy(P + "decision..")
            .layer("Synthetic").definedBy(P + "synthetic..")
            .whereLayer("Api").mayNotBeAccessedByAnyLayer()
            .whereLayer("Live").mayOnlyBeAccessedByLayers("Api")
            .whereLayer("Report").mayOnlyBeAccessedByLayers("Api")
            .whereLayer("Judges").mayOnlyBeAccessedByLayers("Api", "Live", "Report")
            .whereLayer("Seconds").mayOnlyBeAccessedByLayers("Api", "Live", "Report", "Judges")
            .whereLayer("Settings").mayOnlyBeAccessedByLayers("Api", "Live", "Report", "Judges", "Seconds")
            .whereLayer("Decision").mayNotAccessAnyLayer()
            .whereLayer("Synthetic").mayNotBeAccessedByAnyLayer()
            .whereLayer("Synthetic").mayNotAccessAnyLayer();

    @ArchTest
    static final ArchRule reachesOnlyModelAndWire = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackages(
                    "io.rigscope.analyzer..", "io.rigscope.model..", "io.rigscope.wire..")));

    @ArchTest
    static final ArchRule usesNoBenchmark = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.rigscope.benchmarks..");
}
