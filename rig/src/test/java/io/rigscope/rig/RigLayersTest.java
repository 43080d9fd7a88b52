package io.rigscope.rig;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.FreezingArchRule;

/**
 * rig's layers: commands ({@code cli}, every picocli command) over orchestration (series, calibrate, experiment,
 * cloud, collect, ...) over shared options ({@code options}: durations, exit codes, usage errors, Kafka and
 * Postgres targets). {@code Main} launches {@code cli}; nothing else uses it. The analyzer is reached through its
 * faces ({@code api}, {@code decision}, {@code report}); today's other uses are frozen in
 * {@code src/test/resources/archunit-store} (a new one fails, a fixed one leaves the store), as is the one arrow
 * back to {@code Main}. Cycles between rig's packages: none.
 */
@AnalyzeClasses(packages = "io.rigscope.rig", importOptions = ImportOption.DoNotIncludeTests.class)
class RigLayersTest {

    private static final String CLI = "io.rigscope.rig.cli..";
    private static final String OPTIONS = "io.rigscope.rig.options..";

    @ArchTest
    static final ArchRule nothingButCliAndMainUsesCli = noClasses()
            .that().resideOutsideOfPackages(CLI, "io.rigscope.rig")
            .should().dependOnClassesThat().resideInAPackage(CLI)
            .as("nothing but cli (and Main) uses cli");

    @ArchTest
    static final ArchRule optionsUsesNoOtherRigPackage = noClasses()
            .that().resideInAPackage(OPTIONS)
            .should().dependOnClassesThat(resideInAPackage("io.rigscope.rig..").and(resideOutsideOfPackages(OPTIONS)))
            .as("options uses no other rig package");

    @ArchTest
    static final ArchRule commandsOverOrchestrationOverOptions = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Launcher").definedBy("io.rigscope.rig")
            .layer("Commands").definedBy(CLI)
            .layer("Orchestration").definedBy(resideInAPackage("io.rigscope.rig..")
                    .and(resideOutsideOfPackages("io.rigscope.rig", CLI, OPTIONS)))
            .layer("Options").definedBy(OPTIONS)
            .whereLayer("Launcher").mayNotBeAccessedByAnyLayer()
            .whereLayer("Commands").mayOnlyBeAccessedByLayers("Launcher")
            .whereLayer("Orchestration").mayOnlyBeAccessedByLayers("Commands")
            .whereLayer("Options").mayOnlyBeAccessedByLayers("Launcher", "Commands", "Orchestration")
            .whereLayer("Options").mayNotAccessAnyLayer()
            .as("Main over cli over orchestration over options");

    @ArchTest
    static final ArchRule analyzerOnlyThroughItsFaces = FreezingArchRule.freeze(noClasses()
            .should().dependOnClassesThat(resideInAPackage("io.rigscope.analyzer..").and(resideOutsideOfPackages(
                    "io.rigscope.analyzer.api..", "io.rigscope.analyzer.decision..",
                    "io.rigscope.analyzer.report..")))
            .as("rig reaches the analyzer only through api, decision and report"));

    @ArchTest
    static final ArchRule noCyclesBetweenRigPackages = slices().matching("io.rigscope.rig.(*)..")
            .should().beFreeOfCycles()
            .as("no cycles between rig's packages (a package with its subpackages)");
}
