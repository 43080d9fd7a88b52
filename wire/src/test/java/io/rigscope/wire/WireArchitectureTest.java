package io.rigscope.wire;

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
 * The wire's packages: the publisher and reader (the root package) over the Kafka plumbing (kafka) over the host's
 * view (host); the wire reaches only the model; no cycle, the root package included.
 */
@AnalyzeClasses(packages = "io.rigscope.wire", importOptions = ImportOption.DoNotIncludeTests.class)
class WireArchitectureTest {

    private static final String P = "io.rigscope.wire";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.wire.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Publishing").definedBy(P)
            .layer("Kafka").definedBy(P + ".kafka..")
            .layer("Host").definedBy(P + ".host..")
            .whereLayer("Publishing").mayNotBeAccessedByAnyLayer()
            .whereLayer("Kafka").mayOnlyBeAccessedByLayers("Publishing")
            .whereLayer("Host").mayOnlyBeAccessedByLayers("Publishing", "Kafka");

    @ArchTest
    static final ArchRule reachesOnlyTheModel = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackages("io.rigscope.wire..",
                    "io.rigscope.model..")));
}
