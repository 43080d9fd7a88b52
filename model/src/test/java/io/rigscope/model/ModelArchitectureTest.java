package io.rigscope.model;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The model is the bottom of every module: it reaches no other rigscope module. Inside, the codec is over the
 * records (wire) over the topics; proc stands alone; no cycle.
 */
@AnalyzeClasses(packages = "io.rigscope.model", importOptions = ImportOption.DoNotIncludeTests.class)
class ModelArchitectureTest {

    private static final String P = "io.rigscope.model.";

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices().matching("io.rigscope.model.(*)..").should()
            .beFreeOfCycles();

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Codec").definedBy(P + "codec..")
            .layer("Records").definedBy(P + "wire..")
            .layer("Topics").definedBy(P + "topic..")
            .layer("Proc").definedBy(P + "proc..")
            .whereLayer("Codec").mayNotBeAccessedByAnyLayer()
            .whereLayer("Records").mayOnlyBeAccessedByLayers("Codec")
            .whereLayer("Topics").mayOnlyBeAccessedByLayers("Codec", "Records")
            .whereLayer("Proc").mayNotBeAccessedByAnyLayer()
            .whereLayer("Proc").mayNotAccessAnyLayer();

    @ArchTest
    static final ArchRule reachesNoOtherModule = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackage("io.rigscope.model..")));
}
