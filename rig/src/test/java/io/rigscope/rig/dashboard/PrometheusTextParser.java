package io.rigscope.rig.dashboard;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4, written from the format's description
 * (prometheus.io, "Exposition formats"): every line a HELP, a TYPE or a sample; names and label names by the
 * format's grammar; label values with only the three escapes it allows; values as Go parses floats (and NaN,
 * +Inf, -Inf); one TYPE per family, before its samples; a family's samples together; a final line feed.
 * Throws {@link IllegalArgumentException} naming the line on anything else.
 */
final class PrometheusTextParser {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    record Exposition(Map<String, String> types, Map<String, String> help, List<Sample> samples) {
        List<Sample> named(String name) {
            return samples.stream().filter(s -> s.name().equals(name)).toList();
        }
    }

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");

    private PrometheusTextParser() {
    }

    static Exposition parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException("the exposition does not end with a line feed");
        }
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        List<Sample> samples = new ArrayList<>();
        Set<String> closedFamilies = new HashSet<>();
        String currentFamily = null;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            String where = "line " + (i + 1) + " '" + line + "'";
            Matcher m;
            if (line.startsWith("#")) {
                if ((m = HELP.matcher(line)).matches()) {
                    if (help.put(m.group(1), m.group(2)) != null) {
                        throw new IllegalArgumentException(where + ": a second HELP for " + m.group(1));
                    }
                    currentFamily = enter(m.group(1), currentFamily, closedFamilies, where);
                } else if ((m = TYPE.matcher(line)).matches()) {
                    if (types.put(m.group(1), m.group(2)) != null) {
                        throw new IllegalArgumentException(where + ": a second TYPE for " + m.group(1));
                    }
                    String typed = m.group(1);
                    if (samples.stream().anyMatch(s -> s.name().equals(typed))) {
                        throw new IllegalArgumentException(where + ": TYPE after its samples");
                    }
                    currentFamily = enter(m.group(1), currentFamily, closedFamilies, where);
                } else if (line.startsWith("# HELP") || line.startsWith("# TYPE")) {
                    throw new IllegalArgumentException(where + ": malformed HELP or TYPE");
                }
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            if (!(m = SAMPLE.matcher(line)).matches()) {
                throw new IllegalArgumentException(where + ": not a sample");
            }
            String name = m.group(1);
            currentFamily = enter(name, currentFamily, closedFamilies, where);
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null && !m.group(3).isEmpty()) {
                String rest = m.group(3);
                while (!rest.isEmpty()) {
                    Matcher l = LABEL.matcher(rest);
                    if (!l.lookingAt()) {
                        throw new IllegalArgumentException(where + ": bad label at '" + rest + "'");
                    }
                    if (labels.put(l.group(1), unescape(l.group(2))) != null) {
                        throw new IllegalArgumentException(where + ": label " + l.group(1) + " twice");
                    }
                    rest = rest.substring(l.end());
                    if (rest.startsWith(",")) {
                        rest = rest.substring(1);
                    } else if (!rest.isEmpty()) {
                        throw new IllegalArgumentException(where + ": expected ',' at '" + rest + "'");
                    }
                }
            }
            samples.add(new Sample(name, labels, value(m.group(4), where)));
        }
        for (Sample s : samples) {
            if (!types.containsKey(s.name())) {
                throw new IllegalArgumentException("sample " + s.name() + " has no TYPE");
            }
        }
        return new Exposition(types, help, samples);
    }

    private static String enter(String family, String current, Set<String> closed, String where) {
        if (family.equals(current)) {
            return current;
        }
        if (closed.contains(family)) {
            throw new IllegalArgumentException(where + ": family " + family + " is split");
        }
        if (current != null) {
            closed.add(current);
        }
        return family;
    }

    private static double value(String text, String where) {
        switch (text) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                if (!FLOAT.matcher(text).matches()) {
                    throw new IllegalArgumentException(where + ": '" + text + "' is not a float");
                }
                return Double.parseDouble(text);
        }
    }

    private static String unescape(String v) {
        return v.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
