package io.rigscope.rig.ownservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The ledger service's command line. */
class GraphqlServiceOptionsTest {

    @Test
    void aUrlOnTheCommandLineIsParsedAsThePgModuleParsesIt() {
        var o = GraphqlService.Options.parse(new String[] {"--port", "0", "--pg",
                "postgresql://ledger@127.0.0.1:6543/books?application_name=x", "--token", "T", "--atomic", "false"});
        assertThat(o.pg().port()).isEqualTo(6543);
        assertThat(o.pg().database()).isEqualTo("books");
        assertThat(o.pg().applicationName()).isEqualTo("x");
        assertThat(o.token()).isEqualTo("T");
        assertThat(o.atomic()).isFalse();
        assertThat(o.poolSize()).isEqualTo(16);
    }

    @Test
    void atomicIsTheDefaultAndNoTokenMeansNone() {
        var o = GraphqlService.Options.parse(new String[] {"--pg", "postgresql://u@h/db"});
        assertThat(o.atomic()).isTrue();
        assertThat(o.token()).isNull();
        assertThat(o.port()).isZero();
    }

    @Test
    void aValueFromAnUnsetEnvironmentVariableIsRefusedByName() {
        assertThatThrownBy(() -> GraphqlService.Options.parse(new String[] {"--pg", "env:LEDGER_NO_SUCH_VARIABLE_42"}))
                .hasMessageContaining("LEDGER_NO_SUCH_VARIABLE_42");
    }

    @Test
    void badValuesAreRefusedNamingTheirFlag() {
        assertThatThrownBy(() -> GraphqlService.Options.parse(new String[] {"--pg", "postgresql://u@h/db", "--atomic", "yes"}))
                .hasMessageContaining("--atomic 'yes'");
        assertThatThrownBy(() -> GraphqlService.Options.parse(new String[] {"--port", "0"}))
                .hasMessageContaining("--pg is required");
        assertThatThrownBy(() -> GraphqlService.Options.parse(new String[] {"--pg", "mysql://u@h/db"}))
                .hasMessageContaining("--pg");
        assertThatThrownBy(() -> GraphqlService.Options.parse(new String[] {"--pg", "postgresql://u@h/db", "--pool"}))
                .hasMessageContaining("--pool needs a value");
    }
}
