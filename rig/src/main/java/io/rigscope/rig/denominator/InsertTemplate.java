package io.rigscope.rig.denominator;

import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.rig.options.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The denominator's row for a service rigscope did not write: the series file's {@code denominator.insert}, one
 * row ({@code INSERT INTO t (a, b) VALUES ('${customer_id}', ${quantity})}), turned into a pgbench script that
 * inserts {@code batch} such rows in one multi-row statement per transaction, as the service's batch would.
 *
 * <p>Placeholders: {@code ${quantity}} (a pgbench variable per row, {@code random(min, max)} of the ingest body's
 * quantity), {@code ${customer_id}} (per row: a {@code %d} pattern's number drawn by pgbench, or an id of a listed
 * pool drawn once when the script is written) and {@code ${index}} (the row's index in its statement). Anything
 * else a row needs (a unique key, a timestamp) is SQL: {@code md5(random()::text)}, {@code gen_random_uuid()},
 * {@code now()}. Whatever follows the row's parentheses ({@code ON CONFLICT ...}) ends the statement once.
 */
public final class InsertTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");
    private static final List<String> ALLOWED = List.of("customer_id", "quantity", "index");

    private final String head;
    private final String row;
    private final String tail;

    private InsertTemplate(String head, String row, String tail) {
        this.head = head;
        this.row = row;
        this.tail = tail;
    }

    /**
     * Parses and checks {@code insert}.
     *
     * @param where the file and key, named in the error ({@code series.yaml: denominator.insert})
     * @throws UsageException when it is not one row's INSERT ... VALUES (...) or holds an unknown placeholder
     */
    public static InsertTemplate check(String insert, String where) {
        String sql = insert.strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).strip();
        }
        if (!sql.toUpperCase(Locale.ROOT).startsWith("INSERT INTO ")) {
            throw new UsageException(where + " must be one INSERT INTO table (columns) VALUES (...) statement, was '"
                    + abbreviate(sql) + "'");
        }
        Matcher values = Pattern.compile("(?i)\\bVALUES\\s*\\(").matcher(sql);
        int at = -1;
        while (values.find()) {
            at = values.end() - 1;
        }
        if (at < 0) {
            throw new UsageException(where + " has no VALUES (...) row; write the row the service inserts, e.g. "
                    + "INSERT INTO t (a, b) VALUES ('${customer_id}', ${quantity})");
        }
        int close = closing(sql, at);
        if (close < 0) {
            throw new UsageException(where + ": the VALUES row's parenthesis is not closed");
        }
        Matcher m = PLACEHOLDER.matcher(sql);
        while (m.find()) {
            if (!ALLOWED.contains(m.group(1))) {
                throw new UsageException(where + ": unknown placeholder ${" + m.group(1) + "}; allowed: "
                        + ALLOWED.stream().map(p -> "${" + p + "}").toList()
                        + " (other values are SQL: md5(random()::text), gen_random_uuid(), now())");
            }
        }
        return new InsertTemplate(sql.substring(0, at), sql.substring(at, close + 1), sql.substring(close + 1));
    }

    /**
     * The pgbench script: one {@code \set} per drawn value, then one statement of {@code batch} rows.
     *
     * @param customers the ingest body's customer pool
     * @param quantityMin the ingest body's smallest quantity
     * @param quantityMax its largest
     */
    public String script(int batch, CustomerPool customers, long quantityMin, long quantityMax) {
        StringBuilder sets = new StringBuilder();
        List<String> rows = new ArrayList<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < batch; i++) {
            String r = row;
            if (r.contains("${quantity}")) {
                sets.append("\\set q").append(i).append(" random(").append(quantityMin).append(", ")
                        .append(quantityMax).append(")\n");
                r = r.replace("${quantity}", ":q" + i);
            }
            if (r.contains("${customer_id}")) {
                if (customers instanceof CustomerPool.Ranged ranged) {
                    sets.append("\\set c").append(i).append(" random(").append(ranged.from()).append(", ")
                            .append(ranged.to()).append(")\n");
                    // pgbench substitutes :c0 outside string literals only: a quoted id becomes an expression
                    String[] sides = ranged.pattern().split("%d", -1);
                    List<String> parts = new ArrayList<>();
                    if (!sides[0].isEmpty()) {
                        parts.add("'" + sides[0].replace("'", "''") + "'");
                    }
                    parts.add(":c" + i);
                    if (sides.length > 1 && !sides[1].isEmpty()) {
                        parts.add("'" + sides[1].replace("'", "''") + "'");
                    }
                    r = r.replace("'${customer_id}'", "(" + String.join(" || ", parts) + ")")
                            .replace("${customer_id}", ranged.pattern().replace("%d", ":c" + i));
                } else {
                    r = r.replace("${customer_id}", customers.draw(random).replace("'", "''"));
                }
            }
            rows.add(r.replace("${index}", Integer.toString(i)));
        }
        return sets + head + String.join(", ", rows) + tail + ";\n";
    }

    /** The index of the parenthesis closing the one at {@code open}, outside quoted strings; -1 when none. */
    private static int closing(String sql, int open) {
        int depth = 0;
        boolean quoted = false;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
