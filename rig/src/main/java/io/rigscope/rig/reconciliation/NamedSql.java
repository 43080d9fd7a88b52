package io.rigscope.rig.reconciliation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * SQL with named parameters ({@code :window_start}) turned into PostgreSQL's positional ones ({@code $1}),
 * so configured queries can be written readably. {@code ::type} casts, string literals, quoted identifiers
 * and comments are left alone. The same name used twice binds the same value twice.
 *
 * @param sql the positional SQL
 * @param names the parameter name of each position, {@code $1} first
 */
public record NamedSql(String sql, List<String> names) {

    public NamedSql {
        Objects.requireNonNull(sql, "sql");
        names = List.copyOf(names);
    }

    /** Parses configured SQL. */
    public static NamedSql parse(String text) {
        Objects.requireNonNull(text, "sql");
        StringBuilder out = new StringBuilder(text.length());
        List<String> names = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char ch = text.charAt(i);
            if (ch == '\'' || ch == '"') {
                int end = text.indexOf(ch, i + 1);
                end = end < 0 ? n : end + 1;
                out.append(text, i, end);
                i = end;
            } else if (ch == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int end = text.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(text, i, end);
                i = end;
            } else if (ch == ':' && i + 1 < n && text.charAt(i + 1) == ':') {
                out.append("::");
                i += 2;
            } else if (ch == ':' && i + 1 < n && (Character.isLetter(text.charAt(i + 1)) || text.charAt(i + 1) == '_')) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                    j++;
                }
                names.add(text.substring(i + 1, j));
                out.append('$').append(names.size());
                i = j;
            } else {
                out.append(ch);
                i++;
            }
        }
        return new NamedSql(out.toString(), names);
    }

    /**
     * The positional arguments for {@code values}.
     *
     * @throws IllegalArgumentException naming a parameter the SQL uses but {@code values} lacks
     */
    public Object[] args(Map<String, ?> values) {
        Object[] args = new Object[names.size()];
        for (int k = 0; k < names.size(); k++) {
            String name = names.get(k);
            if (!values.containsKey(name) || values.get(name) == null) {
                throw new IllegalArgumentException("the SQL uses :" + name + ", which is not one of the parameters "
                        + values.keySet());
            }
            args[k] = values.get(name);
        }
        return args;
    }
}
