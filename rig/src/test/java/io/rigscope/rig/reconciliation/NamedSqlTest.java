package io.rigscope.rig.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NamedSqlTest {

    @Test
    void namesBecomePositionsAndCastsStringsAndCommentsStayAlone() {
        Reconciliation.NamedSql s = Reconciliation.NamedSql.parse("SELECT ':not_a_param', x::int -- :nor_this\n"
                + "FROM t WHERE a >= :window_start AND b < :window_end AND c = :window_start");
        assertThat(s.sql()).isEqualTo("SELECT ':not_a_param', x::int -- :nor_this\n"
                + "FROM t WHERE a >= $1 AND b < $2 AND c = $3");
        assertThat(s.names()).containsExactly("window_start", "window_end", "window_start");
        assertThat(s.args(Map.of("window_start", 1, "window_end", 2))).containsExactly(1, 2, 1);
    }

    @Test
    void anUnknownParameterIsNamedInTheError() {
        assertThatThrownBy(() -> Reconciliation.NamedSql.parse("SELECT :nope").args(Map.of("run", "s1")))
                .hasMessageContaining(":nope");
    }
}
