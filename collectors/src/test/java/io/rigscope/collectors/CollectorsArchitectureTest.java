package io.rigscope.collectors;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
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
 * The collectors' packages: sources (TelemetrySources) assembles the collectors; each collector package stands
 * alone (but aws reads RDS logs with pglog's parser) over the toolkit (the root package: CollectorContext, Backoff,
 * Resilient, CollectorSet; and pg); no cycle, the root package included.
 */
@AnalyzeClasses(packages = "io.rigscope.collectors", importOptions = ImportOption.DoNotIncludeTests.class)
class CollectorsArchitectureTest {

    private static final String P = "io.rigscope.collectors";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.collectors.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Sources").definedBy(P + ".sources..")
            .layer("Collectors").definedBy(P + ".aws..", P + ".canary..", P + ".db..", P + ".os..", P + ".pglog..",
                    P + ".process..", P + ".vmstat..", P + ".waits..")
            .layer("Toolkit").definedBy(P, P + ".pg..")
            .whereLayer("Sources").mayNotBeAccessedByAnyLayer()
            .whereLayer("Collectors").mayOnlyBeAccessedByLayers("Sources")
            .whereLayer("Toolkit").mayOnlyBeAccessedByLayers("Sources", "Collectors");

    @ArchTest
    static final ArchRule collectorsStandAlone = slices().matching("io.rigscope.collectors.(*)..").should()
            .notDependOnEachOther()
            .ignoreDependency(resideInAPackage(P + ".sources.."), alwaysTrue())
            .ignoreDependency(alwaysTrue(), resideInAPackage(P + ".pg.."))
            .ignoreDependency(resideInAPackage(P + ".aws.."), resideInAPackage(P + ".pglog.."));

    @ArchTest
    static final ArchRule reachesOnlyModelAndPg = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackages(
                    "io.rigscope.collectors..", "io.rigscope.model..", "io.rigscope.pg..")));
}
