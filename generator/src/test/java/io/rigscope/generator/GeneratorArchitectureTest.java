package io.rigscope.generator;

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
 * The generator's packages, layered: the engine (the root package: Generator, GeneratorRun, ScenarioRun) over its
 * parts (body, health, http, outbox) over the plan over the schedule; the local target (target: the bench server,
 * thread CPU) stands apart, using no other generator package and used by none; no cycle, the root package
 * included. The benchmark lives in the benchmarks module.
 */
@AnalyzeClasses(packages = "io.rigscope.generator", importOptions = ImportOption.DoNotIncludeTests.class)
class GeneratorArchitectureTest {

    private static final String P = "io.rigscope.generator";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.generator.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Engine").definedBy(P)
            .layer("Parts").definedBy(P + ".body..", P + ".health..", P + ".http..", P + ".outbox..")
            .layer("Plan").definedBy(P + ".plan..")
            .layer("Schedule").definedBy(P + ".schedule..")
            .layer("Target").definedBy(P + ".target..")
            .whereLayer("Engine").mayNotBeAccessedByAnyLayer()
            .whereLayer("Parts").mayOnlyBeAccessedByLayers("Engine")
            .whereLayer("Plan").mayOnlyBeAccessedByLayers("Engine", "Parts")
            .whereLayer("Schedule").mayOnlyBeAccessedByLayers("Engine", "Parts", "Plan")
            .whereLayer("Target").mayNotBeAccessedByAnyLayer()
            .whereLayer("Target").mayNotAccessAnyLayer();

    @ArchTest
    static final ArchRule reachesOnlyModelAndWire = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackages(
                    "io.rigscope.generator..", "io.rigscope.model..", "io.rigscope.wire..")));

    @ArchTest
    static final ArchRule usesNoBenchmark = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.rigscope.benchmarks..");
}
