package io.rigscope.rig.ownservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.rig.ownservice.GraphqlDocument.AddEntry;
import io.rigscope.rig.ownservice.GraphqlDocument.GraphqlSyntaxException;
import io.rigscope.rig.ownservice.GraphqlDocument.Mutation;
import io.rigscope.rig.ownservice.GraphqlDocument.Query;
import io.rigscope.rig.ownservice.GraphqlDocument.Selection;
import io.rigscope.rig.ownservice.GraphqlDocument.Total;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ledger service's GraphQL subset: what it reads, and how it refuses what lies outside it. */
class GraphqlDocumentTest {

    @Test
    void aliasedAddEntriesParseInDocumentOrder() {
        var doc = GraphqlDocument.parse("mutation { e0: addEntry(account: \"a-1\", amount: 5, ref: \"r-1\") { id } "
                + "e1: addEntry(account: \"a-2\", amount: -7, ref: \"r-2\") { id account } }");
        assertThat(doc).isEqualTo(new Mutation(List.of(
                new AddEntry("e0", "a-1", 5, "r-1", List.of(new Selection("id", "id"))),
                new AddEntry("e1", "a-2", -7, "r-2", List.of(new Selection("id", "id"),
                        new Selection("account", "account"))))));
    }

    @Test
    void anUnaliasedFieldAnswersUnderItsNameAndArgumentOrderDoesNotMatter() {
        var doc = (Mutation) GraphqlDocument.parse("mutation Add { addEntry(ref: \"r\" amount: 1 account: \"a\") { id } }");
        assertThat(doc.entries().get(0)).isEqualTo(new AddEntry("addEntry", "a", 1, "r",
                List.of(new Selection("id", "id"))));
    }

    @Test
    void theQueryShorthandCommentsCommasAndSelectionAliasesAreGraphqlsOwn() {
        var doc = GraphqlDocument.parse("# totals\n{ t: total(account: \"a-1\",) { n: count, sum } # end\n}");
        assertThat(doc).isEqualTo(new Query(List.of(new Total("t", "a-1",
                List.of(new Selection("n", "count"), new Selection("sum", "sum"))))));
    }

    @Test
    void stringsTakeGraphqlEscapes() {
        var doc = (Query) GraphqlDocument.parse("query { total(account: \"q\\\"\\\\\\/\\n\\u00e9\") { count } }");
        assertThat(doc.totals().get(0).account()).isEqualTo("q\"\\/\n\u00e9");
    }

    @Test
    void aSyntaxErrorNamesItsLineAndColumn() {
        assertThatThrownBy(() -> GraphqlDocument.parse("mutation {\n  e0: addEntry(account: \"a\" amount: 5 ref: ) { id }\n}"))
                .isInstanceOfSatisfying(GraphqlSyntaxException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(44);   // the ")" where a value should be
                    assertThat(e.getMessage()).contains("String and Int");
                });
    }

    @Test
    void whatLiesOutsideTheSubsetIsRefusedByName() {
        assertRefused("query ($a: String) { total(account: $a) { count } }", "variables are not supported");
        assertRefused("{ total(account: $a) { count } }", "variables are not supported");
        assertRefused("{ ...F }", "fragments are not supported");
        assertRefused("{ total(account: \"a\") @skip(if: true) { count } }", "directives are not supported");
        assertRefused("{ total(account: \"\"\"a\"\"\") { count } }", "block strings");
        assertRefused("mutation { addEntry(account: \"a\", amount: 1.5, ref: \"r\") { id } }", "not Float");
        assertRefused("subscription { total(account: \"a\") { count } }", "subscriptions are not supported");
        assertRefused("{ total(account: \"a\") { count } } { total(account: \"b\") { count } }", "one operation");
    }

    @Test
    void fieldsAndArgumentsAreCheckedAgainstTheSchema() {
        assertRefused("mutation { removeEntry(ref: \"r\") { id } }", "no field 'removeEntry'");
        assertRefused("mutation { addEntry(account: \"a\", amount: 1) { id } }", "required argument 'ref'");
        assertRefused("mutation { addEntry(account: \"a\", amount: \"1\", ref: \"r\") { id } }", "must be an Int");
        assertRefused("mutation { addEntry(account: \"a\", amount: 1, ref: \"r\", note: \"x\") { id } }",
                "no argument 'note'");
        assertRefused("mutation { addEntry(account: \"a\", amount: 1, ref: \"r\") }", "needs a selection");
        assertRefused("mutation { addEntry(account: \"a\", amount: 1, ref: \"r\") { balance } }", "no field 'balance'");
        assertRefused("mutation { e: addEntry(account: \"a\", amount: 1, ref: \"r\") { id } "
                + "e: addEntry(account: \"b\", amount: 1, ref: \"s\") { id } }", "two fields answer as 'e'");
        assertRefused("mutation { addEntry(account: \"a\", amount: 2147483648, ref: \"r\") { id } }", "32-bit");
        assertRefused("query { addEntry(account: \"a\", amount: 1, ref: \"r\") { id } }", "query type has no field");
    }

    @Test
    void whatIsNotGraphqlAtAllIsRefused() {
        assertRefused("", "empty");
        assertRefused("mutation { e0: addEntry(account: \"a-1\"", "not closed");
        assertRefused("mutation { e0: addEntry(account: \"a-1, amount: 5) { id } }", "not closed");
        assertRefused("hello", "unknown operation 'hello'");
        assertRefused("{ }", "at least one field");
    }

    private static void assertRefused(String document, String reason) {
        assertThatThrownBy(() -> GraphqlDocument.parse(document)).as(document)
                .isInstanceOf(GraphqlSyntaxException.class)
                .hasMessageContaining(reason);
    }
}
