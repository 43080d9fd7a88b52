package io.rigscope.rig.denominator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.rig.options.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

class InsertTemplateTest {

    @Test
    void oneRowBecomesOneStatementOfBatchRowsWithAVariablePerDrawnValue() {
        String script = Denominator.InsertTemplate.check("INSERT INTO ledger_entries (account, amount, ref) VALUES "
                + "('${customer_id}', ${quantity}, md5(random()::text)) ON CONFLICT DO NOTHING;", "f: denominator.insert")
                .script(3, new CustomerPool.Ranged("acct-%d", 1, 50), 1, 100);
        assertThat(script).isEqualTo("""
                \\set q0 random(1, 100)
                \\set c0 random(1, 50)
                \\set q1 random(1, 100)
                \\set c1 random(1, 50)
                \\set q2 random(1, 100)
                \\set c2 random(1, 50)
                INSERT INTO ledger_entries (account, amount, ref) VALUES (('acct-' || :c0), :q0, md5(random()::text)), \
                (('acct-' || :c1), :q1, md5(random()::text)), (('acct-' || :c2), :q2, md5(random()::text)) \
                ON CONFLICT DO NOTHING;
                """);
    }

    @Test
    void aListedPoolIsDrawnWhenTheScriptIsWrittenAndQuotedAsSql() {
        String script = Denominator.InsertTemplate.check("insert into t (c, i) values ('${customer_id}', ${index})", "k")
                .script(2, new CustomerPool.Listed(List.of("o'brien")), 1, 1);
        assertThat(script).isEqualTo("insert into t (c, i) values ('o''brien', 0), ('o''brien', 1);\n");
    }

    @Test
    void whatIsNotOneRowsInsertIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> Denominator.InsertTemplate.check("UPDATE t SET a = 1", "s.yaml: denominator.insert"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("s.yaml: denominator.insert must be one INSERT");
        assertThatThrownBy(() -> Denominator.InsertTemplate.check("INSERT INTO t (a) SELECT 1", "k"))
                .hasMessageContaining("has no VALUES (...) row");
        assertThatThrownBy(() -> Denominator.InsertTemplate.check("INSERT INTO t (a) VALUES (${uuid})", "k"))
                .hasMessageContaining("unknown placeholder ${uuid}");
        assertThatThrownBy(() -> Denominator.InsertTemplate.check("INSERT INTO t (a) VALUES ((1)", "k"))
                .hasMessageContaining("not closed");
    }
}
