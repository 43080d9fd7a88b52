package io.rigscope.localenv;

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
 * The local environment's packages: the embedded broker (kafka) and the local Postgres (postgres) stand apart, both
 * over the ports they share (net); the child JVMs (childjvm) use no other localenv package and none uses them;
 * localenv reaches only the wire and the model; no cycle.
 */
@AnalyzeClasses(packages = "io.rigscope.localenv", importOptions = ImportOption.DoNotIncludeTests.class)
class LocalenvArchitectureTest {

    private static final String P = "io.rigscope.localenv.";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.localenv.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Kafka").definedBy(P + "kafka..")
            .layer("Postgres").definedBy(P + "postgres..")
            .layer("Net").definedBy(P + "net..")
            .layer("ChildJvm").definedBy(P + "childjvm..")
            .whereLayer("Kafka").mayNotBeAccessedByAnyLayer()
            .whereLayer("Postgres").mayNotBeAccessedByAnyLayer()
            .whereLayer("Net").mayOnlyBeAccessedByLayers("Kafka", "Postgres")
            .whereLayer("ChildJvm").mayNotBeAccessedByAnyLayer()
            .whereLayer("ChildJvm").mayNotAccessAnyLayer();

    @ArchTest
    static final ArchRule reachesOnlyWireAndModel = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackages("io.rigscope.localenv..",
                    "io.rigscope.wire..", "io.rigscope.model..")));
}
