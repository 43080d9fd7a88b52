package io.rigscope.importers;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The importers reach the analyzer through its faces: api, decision, report; and, until they are re-homed, the
 * packages listed here as exceptions (threshold: the k6 grammar; repeat: RepeatSummary; gate: GateResult; second:
 * SecondClosing).
 */
@AnalyzeClasses(packages = "io.rigscope.importers", importOptions = ImportOption.DoNotIncludeTests.class)
class AnalyzerFacesTest {

    @ArchTest
    static final ArchRule onlyThroughTheFaces = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.rigscope.analyzer..").and(resideOutsideOfPackages(
                    "io.rigscope.analyzer.api..", "io.rigscope.analyzer.decision..", "io.rigscope.analyzer.report..",
                    "io.rigscope.analyzer.threshold..", "io.rigscope.analyzer.repeat..",
                    "io.rigscope.analyzer.gate..", "io.rigscope.analyzer.second..")));
}
