package io.rigscope.analyzer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The analyzer's layers (docs/architecture.md, Inside analyzer): the benchmark is used by no other package. */
@AnalyzeClasses(packages = "io.rigscope.analyzer", importOptions = ImportOption.DoNotIncludeTests.class)
class AnalyzerLayersTest {

    @ArchTest
    static final ArchRule benchIsUsedByNoOtherPackage = noClasses().that()
            .resideOutsideOfPackage("io.rigscope.analyzer.bench..").should().dependOnClassesThat()
            .resideInAPackage("io.rigscope.analyzer.bench..");
}
