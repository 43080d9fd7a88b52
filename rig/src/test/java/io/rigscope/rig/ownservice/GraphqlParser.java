package io.rigscope.rig.ownservice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.rigscope.rig.ownservice.GraphqlDocument.AddEntry;
import io.rigscope.rig.ownservice.GraphqlDocument.GraphqlSyntaxException;
import io.rigscope.rig.ownservice.GraphqlDocument.Mutation;
import io.rigscope.rig.ownservice.GraphqlDocument.Query;
import io.rigscope.rig.ownservice.GraphqlDocument.Selection;
import io.rigscope.rig.ownservice.GraphqlDocument.Total;
/** {@link GraphqlDocument}'s parser: recursive descent over the characters; one instance per document. Not thread-safe. */
final class GraphqlParser {
    private final String text;
    private int pos;

    GraphqlParser(String text) {
        this.text = text;
    }

    /** A field as written, before it is checked against the schema. */
    private record RawField(String responseKey, String name, Map<String, Object> arguments,
                            List<RawField> selection, int at) {
    }

    GraphqlDocument document() {
        skipIgnored();
        if (pos == text.length()) {
            throw error("the document is empty; expected 'query { ... }' or 'mutation { ... }'", pos);
        }
        String kind = "query";
        int opAt = pos;
        if (peek() != '{') {
            kind = name("an operation ('query' or 'mutation') or '{'");
            if (!kind.equals("query") && !kind.equals("mutation")) {
                throw error((kind.equals("subscription") ? "subscriptions are not supported"
                        : kind.equals("fragment") ? "fragments are not supported"
                        : "unknown operation '" + kind + "'") + "; expected 'query' or 'mutation'", opAt);
            }
            skipIgnored();
            if (pos < text.length() && isNameStart(peek())) {
                name("an operation name");   // named operations are fine; the name answers nothing
            }
            if (pos < text.length() && peek() == '(') {
                throw error("variables are not supported; write the values into the arguments", pos);
            }
            directivesRefused();
        }
        int setAt = pos;
        List<RawField> fields = selectionSet();
        skipIgnored();
        if (pos < text.length()) {
            throw error("only one operation per document is supported; found more after its end", pos);
        }
        if (fields.size() > GraphqlDocument.MAX_ROOT_FIELDS) {
            throw error("at most " + GraphqlDocument.MAX_ROOT_FIELDS + " fields per operation, found " + fields.size(), setAt);
        }
        checkUniqueKeys(fields);
        return kind.equals("mutation") ? mutation(fields) : query(fields);
    }

    private Mutation mutation(List<RawField> fields) {
        List<AddEntry> entries = new ArrayList<>(fields.size());
        for (RawField f : fields) {
            if (!f.name().equals("addEntry")) {
                throw error("the mutation type has no field '" + f.name() + "'; it has addEntry", f.at());
            }
            checkArguments(f, Map.of("account", String.class, "amount", Integer.class, "ref", String.class));
            entries.add(new AddEntry(f.responseKey(), (String) f.arguments().get("account"),
                    (Integer) f.arguments().get("amount"), (String) f.arguments().get("ref"),
                    leaves(f, GraphqlDocument.ENTRY_FIELDS, "LedgerEntry")));
        }
        return new Mutation(entries);
    }

    private Query query(List<RawField> fields) {
        List<Total> totals = new ArrayList<>(fields.size());
        for (RawField f : fields) {
            if (!f.name().equals("total")) {
                throw error("the query type has no field '" + f.name() + "'; it has total", f.at());
            }
            checkArguments(f, Map.of("account", String.class));
            totals.add(new Total(f.responseKey(), (String) f.arguments().get("account"),
                    leaves(f, GraphqlDocument.TOTAL_FIELDS, "Total")));
        }
        return new Query(totals);
    }

    private void checkArguments(RawField f, Map<String, Class<?>> wanted) {
        for (var arg : f.arguments().entrySet()) {
            Class<?> type = wanted.get(arg.getKey());
            if (type == null) {
                throw error("'" + f.name() + "' has no argument '" + arg.getKey() + "'; it takes "
                        + String.join(", ", new TreeSet<>(wanted.keySet())), f.at());
            }
            if (!type.isInstance(arg.getValue())) {
                throw error("argument '" + arg.getKey() + "' of '" + f.responseKey() + "' must be "
                        + (type == String.class ? "a String" : "an Int"), f.at());
            }
        }
        for (String required : new TreeSet<>(wanted.keySet())) {
            if (!f.arguments().containsKey(required)) {
                throw error("'" + f.responseKey() + "' lacks its required argument '" + required + "'", f.at());
            }
        }
    }

    private List<Selection> leaves(RawField f, Set<String> allowed, String typeName) {
        if (f.selection() == null) {
            throw error("'" + f.responseKey() + "' returns " + typeName + " and needs a selection, e.g. { "
                    + (allowed.contains("id") ? "id" : "count sum") + " }", f.at());
        }
        checkUniqueKeys(f.selection());
        List<Selection> out = new ArrayList<>(f.selection().size());
        for (RawField leaf : f.selection()) {
            if (!allowed.contains(leaf.name())) {
                throw error(typeName + " has no field '" + leaf.name() + "'; it has "
                        + String.join(", ", new TreeSet<>(allowed)), leaf.at());
            }
            if (!leaf.arguments().isEmpty() || leaf.selection() != null) {
                throw error("'" + leaf.name() + "' is a scalar: it takes no arguments and no selection",
                        leaf.at());
            }
            out.add(new Selection(leaf.responseKey(), leaf.name()));
        }
        return out;
    }

    /** Two fields answering under one key would have to merge; this subset refuses instead. */
    private void checkUniqueKeys(List<RawField> fields) {
        Set<String> seen = new LinkedHashSet<>();
        for (RawField f : fields) {
            if (!seen.add(f.responseKey())) {
                throw error("two fields answer as '" + f.responseKey() + "'; give each its own alias", f.at());
            }
        }
    }

    private List<RawField> selectionSet() {
        expect('{');
        List<RawField> fields = new ArrayList<>();
        while (true) {
            skipIgnored();
            if (pos == text.length()) {
                throw error("the selection set is not closed; expected '}'", pos);
            }
            if (peek() == '}') {
                pos++;
                break;
            }
            if (text.startsWith("...", pos)) {
                throw error("fragments are not supported", pos);
            }
            fields.add(field());
        }
        if (fields.isEmpty()) {
            throw error("a selection set needs at least one field", pos - 1);
        }
        return fields;
    }

    private RawField field() {
        int at = pos;
        String first = name("a field");
        String alias = null;
        String name = first;
        skipIgnored();
        if (pos < text.length() && peek() == ':') {
            pos++;
            skipIgnored();
            alias = first;
            name = name("a field name after the alias '" + first + "'");
            skipIgnored();
        }
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (pos < text.length() && peek() == '(') {
            arguments = arguments();
            skipIgnored();
        }
        directivesRefused();
        List<RawField> selection = null;
        if (pos < text.length() && peek() == '{') {
            selection = selectionSet();
        }
        return new RawField(alias == null ? name : alias, name, arguments, selection, at);
    }

    private Map<String, Object> arguments() {
        expect('(');
        Map<String, Object> out = new LinkedHashMap<>();
        while (true) {
            skipIgnored();
            if (pos == text.length()) {
                throw error("the arguments are not closed; expected ')'", pos);
            }
            if (peek() == ')') {
                pos++;
                break;
            }
            int at = pos;
            String name = name("an argument name");
            expect(':');
            skipIgnored();
            Object value = value();
            if (out.put(name, value) != null) {
                throw error("argument '" + name + "' is given twice", at);
            }
        }
        if (out.isEmpty()) {
            throw error("empty arguments '()'; leave the parentheses out", pos - 1);
        }
        return out;
    }

    private Object value() {
        if (pos == text.length()) {
            throw error("expected a value", pos);
        }
        char c = peek();
        if (c == '"') {
            if (text.startsWith("\"\"\"", pos)) {
                throw error("block strings are not supported; use a \"string\"", pos);
            }
            return string();
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return integer();
        }
        if (c == '$') {
            throw error("variables are not supported; write the value itself", pos);
        }
        throw error("only String and Int arguments are supported here", pos);
    }

    private Integer integer() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && peek() >= '0' && peek() <= '9') {
            pos++;
        }
        if (pos == digits) {
            throw error("expected a digit after '-'", pos);
        }
        if (text.charAt(digits) == '0' && pos - digits > 1) {
            throw error("an Int has no leading zeros", start);
        }
        if (pos < text.length() && (peek() == '.' || peek() == 'e' || peek() == 'E')) {
            throw error("only Int arguments are supported, not Float", start);
        }
        if (pos < text.length() && isNameStart(peek())) {
            throw error("a name cannot follow a number without a space", pos);
        }
        String literal = text.substring(start, pos);
        try {
            return Integer.valueOf(literal);
        } catch (NumberFormatException e) {
            throw error("Int cannot represent " + literal + ": it is outside the 32-bit signed range", start);
        }
    }

    private String string() {
        int start = pos;
        pos++;   // the opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos == text.length()) {
                throw error("the string is not closed", start);
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\n' || c == '\r') {
                throw error("a string cannot span lines", start);
            }
            if (c < 0x20 && c != '\t') {
                throw error("a string cannot hold the control character U+" + String.format("%04X", (int) c),
                        pos - 1);
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos == text.length()) {
                throw error("the string is not closed", start);
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"' -> out.append('"');
                case '\\' -> out.append('\\');
                case '/' -> out.append('/');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("\\u needs four hex digits", pos - 2);
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException bad) {
                        throw error("\\u needs four hex digits", pos - 2);
                    }
                    pos += 4;
                }
                default -> throw error("unknown escape '\\" + e + "' in a string", pos - 2);
            }
        }
    }

    private void directivesRefused() {
        skipIgnored();
        if (pos < text.length() && peek() == '@') {
            throw error("directives are not supported", pos);
        }
    }

    private String name(String expected) {
        skipIgnored();
        if (pos == text.length() || !isNameStart(peek())) {
            throw error("expected " + expected + ", found " + found(), pos);
        }
        int start = pos;
        while (pos < text.length() && (isNameStart(peek()) || (peek() >= '0' && peek() <= '9'))) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private void expect(char c) {
        skipIgnored();
        if (pos == text.length() || peek() != c) {
            throw error("expected '" + c + "', found " + found(), pos);
        }
        pos++;
    }

    private String found() {
        if (pos == text.length()) {
            return "the end of the document";
        }
        int cp = text.codePointAt(pos);
        return "'" + new String(Character.toChars(cp)) + "'";
    }

    /** White space, line terminators, commas, comments and a byte order mark: GraphQL's ignored tokens. */
    private void skipIgnored() {
        while (pos < text.length()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\uFEFF') {
                pos++;
            } else if (c == '#') {
                while (pos < text.length() && peek() != '\n' && peek() != '\r') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    private char peek() {
        return text.charAt(pos);
    }

    private static boolean isNameStart(char c) {
        return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    private GraphqlSyntaxException error(String message, int at) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < Math.min(at, text.length()); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
                line++;
                column = 1;
            } else if (c != '\r') {
                column++;
            }
        }
        return new GraphqlSyntaxException(message, line, column);
    }
}
