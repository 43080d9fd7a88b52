package io.rigscope.rig.ownservice;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The GraphQL documents the ledger service understands, parsed and validated: one operation, either a mutation of
 * {@code addEntry} fields or a query of {@code total} fields, each with an optional alias, string and integer
 * arguments and a selection of scalar fields.
 *
 * <pre>{@code
 * mutation { e0: addEntry(account: "a-1", amount: 5, ref: "r-1") { id } e1: addEntry(...) { id account } }
 * query { total(account: "a-1") { count sum } }
 * { t: total(account: "a-1") { n: count } }            # the query shorthand, aliases on the selection too
 * }</pre>
 *
 * <p>Hand-written for exactly this subset: the lexical rules are GraphQL's (commas and {@code #} comments are
 * ignored, strings take GraphQL's escapes, {@code Int} is 32-bit signed), and whatever lies outside the subset
 * (variables, fragments, directives, block strings, floats, lists, enums, subscriptions, several operations) is
 * refused with a message that names it and where it is, not misread.
 */
sealed interface GraphqlDocument permits GraphqlDocument.Mutation, GraphqlDocument.Query {

    /** Most root fields one document may hold; more is a validation error. */
    int MAX_ROOT_FIELDS = 1_000;

    /** The fields an {@code addEntry} may select (those of the stored row). */
    Set<String> ENTRY_FIELDS = Set.of("id", "account", "amount", "ref");

    /** The fields a {@code total} may select. */
    Set<String> TOTAL_FIELDS = Set.of("count", "sum");

    /**
     * Parses and validates a document.
     *
     * @throws GraphqlSyntaxException naming what is wrong and its line and column (1-based)
     */
    static GraphqlDocument parse(String text) {
        return new GraphqlParser(Objects.requireNonNull(text, "text")).document();
    }

    /**
     * A scalar field of a selection set.
     *
     * @param responseKey the key it answers under: its alias, or its name without one
     * @param name the field
     */
    record Selection(String responseKey, String name) {
        public Selection {
            Objects.requireNonNull(responseKey, "responseKey");
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * One {@code addEntry} field: a row to store.
     *
     * @param responseKey its alias, or {@code addEntry}
     * @param selection what to answer of the stored row, in order, never empty
     */
    record AddEntry(String responseKey, String account, int amount, String ref, List<Selection> selection) {
        public AddEntry {
            Objects.requireNonNull(responseKey, "responseKey");
            Objects.requireNonNull(account, "account");
            Objects.requireNonNull(ref, "ref");
            selection = List.copyOf(selection);
        }
    }

    /**
     * One {@code total} field: the count and sum of an account's amounts.
     *
     * @param responseKey its alias, or {@code total}
     * @param selection what to answer, in order, never empty
     */
    record Total(String responseKey, String account, List<Selection> selection) {
        public Total {
            Objects.requireNonNull(responseKey, "responseKey");
            Objects.requireNonNull(account, "account");
            selection = List.copyOf(selection);
        }
    }

    /** {@code mutation { ... }}: its entries in document order (GraphQL runs them serially, in that order). */
    record Mutation(List<AddEntry> entries) implements GraphqlDocument {
        public Mutation {
            entries = List.copyOf(entries);
        }
    }

    /** {@code query { ... }} or {@code { ... }}. */
    record Query(List<Total> totals) implements GraphqlDocument {
        public Query {
            totals = List.copyOf(totals);
        }
    }

    /** A document outside the subset, or not GraphQL at all, with where the parser stopped. */
    final class GraphqlSyntaxException extends RuntimeException {
        private final int line;
        private final int column;

        GraphqlSyntaxException(String message, int line, int column) {
            super(message);
            this.line = line;
            this.column = column;
        }

        /** 1-based. */
        public int line() {
            return line;
        }

        /** 1-based, in characters. */
        public int column() {
            return column;
        }
    }
}
