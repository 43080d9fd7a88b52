package io.rigscope.awsstandin;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The stand-in's protocol layer (the root package: server, router, protocol encoding) is under its service
 * behaviours (rds) and knows none of them; only the services reach the model (their readings); the module reaches
 * no other rigscope module, and does not carry the AWS SDK (the SDK is what it is tested with, from outside).
 */
@AnalyzeClasses(packages = "io.rigscope.awsstandin", importOptions = ImportOption.DoNotIncludeTests.class)
class AwsStandInArchitectureTest {

    private static final String P = "io.rigscope.awsstandin";

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Services").definedBy(P + ".rds..")
            .layer("Protocol").definedBy(P)
            .whereLayer("Services").mayNotBeAccessedByAnyLayer()
            .whereLayer("Protocol").mayOnlyBeAccessedByLayers("Services");

    @ArchTest
    static final ArchRule protocolReachesNoModel = noClasses().that().resideInAPackage(P).should()
            .dependOnClassesThat(resideInAPackage("io.rigscope.model.."));

    @ArchTest
    static final ArchRule reachesOnlyTheModel = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope..").and(resideOutsideOfPackages(P + "..", "io.rigscope.model..")));

    @ArchTest
    static final ArchRule noAwsSdk = noClasses().should().dependOnClassesThat(resideInAPackage("software.amazon.."));
}
