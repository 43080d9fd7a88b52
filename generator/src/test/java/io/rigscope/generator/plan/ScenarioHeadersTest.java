package io.rigscope.generator.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Header values that hold {@code ${env:NAME}}: resolved for sending only, templates everywhere else. */
class ScenarioHeadersTest {

    /** A variable every test JVM has, whose value is a secret stand-in. */
    private static final String VARIABLE = System.getenv("HOME") != null ? "HOME" : "PATH";

    private static Scenario scenario(Map<String, String> headers) {
        return new Scenario("s", "GET", URI.create("http://127.0.0.1:1/"), headers, 1, 1, Duration.ofSeconds(1), null);
    }

    @Test
    void sendHeadersResolveTheEnvironmentAndHeadersAndTheConfigDataKeepTheTemplate() {
        String value = System.getenv(VARIABLE);
        Scenario s = scenario(Map.of("Authorization", "Bearer ${env:" + VARIABLE + "}", "X-Home", "at ${env:" + VARIABLE + "}!"));

        assertThat(s.sendHeaders()).containsEntry("Authorization", "Bearer " + value).containsEntry("X-Home", "at " + value + "!");
        assertThat(s.headers()).containsEntry("X-Home", "at ${env:" + VARIABLE + "}!");
        assertThat(s.toMap().get("headers")).isEqualTo(Map.of("Authorization", "***", "X-Home", "at ${env:" + VARIABLE + "}!"));
        assertThat(s.check()).isNull();
    }

    @Test
    void anUnsetVariableInAHeaderIsRejectedWhenTheScenarioIsBuiltNamingTheHeader() {
        String name = "RIGSCOPE_UNSET_" + Long.toHexString(System.nanoTime()).toUpperCase(Locale.ROOT);
        assertThatThrownBy(() -> scenario(Map.of("X-Api-Key", "${env:" + name + "}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("scenario s: header X-Api-Key: ${env:" + name + "}: environment variable " + name + " is not set");
    }

    @Test
    void otherTextInAHeaderIsSentAsWritten() {
        assertThat(scenario(Map.of("X-T", "${other} $5")).sendHeaders()).containsEntry("X-T", "${other} $5");
    }

    @Test
    void theCheckIsInTheConfigData() {
        Scenario s = new Scenario("s", "GET", URI.create("http://127.0.0.1:1/"), Map.of(), 1, 1, Duration.ofSeconds(1),
                null, new ResponseCheck(null, null, "errors", null));
        assertThat(s.toMap().get("check")).isEqualTo(s.check().toMap());
    }
}
