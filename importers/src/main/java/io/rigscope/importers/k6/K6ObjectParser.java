package io.rigscope.importers.k6;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@link K6LineReader}'s parser path: a k6 line read by Jackson's streaming parser (no tree per line), its metric
 * names, tag keys, tag values and tag sets interned, its thresholds decoded; and the tables the byte path shares
 * (the interned strings, the tags objects already read by their bytes, the metrics whose points are kept). Not
 * thread-safe: one per reader.
 */
final class K6ObjectParser {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .build();

    private final Predicate<String> wanted;
    private final Set<String> withThresholds = new HashSet<>();
    private final K6Interning.StringPool strings = new K6Interning.StringPool();
    private final K6Interning.TagPool tagSets = new K6Interning.TagPool();
    private final RfcTime times = new RfcTime();
    private final K6Interning.ByBytes<K6Tags> rawTags = new K6Interning.ByBytes<>();

    // one line's fields, reset by object()
    private String type;
    private String metric;
    private long timeUs;
    private String badTime;
    private boolean hasTime;
    private double value;
    private boolean hasValue;
    private K6Tags tags;
    private String name;
    private String metricType;
    private String contains;
    private List<ThresholdDecl> thresholds;
    private final String[] tagKeys = new String[64];
    private final String[] tagValues = new String[64];
    /** The bytes the current parser reads, and where its input starts in them. */
    private byte[] source;
    private int sourceOff;

    K6ObjectParser(Predicate<String> wanted) {
        this.wanted = wanted;
    }

    /** A parser over {@code bytes[off, off + len)}, for {@link #object} to read objects from. */
    JsonParser over(byte[] bytes, int off, int len) throws IOException {
        source = bytes;
        sourceOff = off;
        return FACTORY.createParser(bytes, off, len);
    }

    /** True when the points of {@code metric} are read: the reader wants it, or a Metric line gave it thresholds. */
    boolean keeps(String metric) {
        return wanted.test(metric) || withThresholds.contains(metric);
    }

    /** The tags object whose bytes are {@code b[off, off + len)}, when those bytes were read before; else null. */
    K6Tags knownTags(byte[] b, int off, int len) {
        return rawTags.get(b, off, len);
    }

    /** {@code chars[0, len)} interned. */
    String intern(char[] chars, int len) {
        return strings.intern(chars, 0, len);
    }

    /** One line held in {@code bytes[off, off + len)}, read by Jackson's parser. */
    K6Line line(byte[] bytes, int off, int len) throws K6LineReader.BadLineException {
        try (JsonParser p = over(bytes, off, len)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                throw new K6LineReader.BadLineException(t == null ? "is empty" : "is not a k6 JSON output line (not an object)");
            }
            K6Line line = object(p);
            if (p.nextToken() != null) {
                throw new K6LineReader.BadLineException("is not JSON: more than one value on the line");
            }
            return line;
        } catch (JsonProcessingException e) {
            throw new K6LineReader.BadLineException("is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new K6LineReader.BadLineException("is not JSON: " + e.getMessage());
        }
    }

    /** A tags object's bytes not seen before: read when they are exactly one JSON object, else null. */
    K6Tags unseenTags(byte[] b, int off, int len) {
        try (JsonParser q = FACTORY.createParser(b, off, len)) {
            if (q.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            K6Tags read = tags(q);
            if (q.nextToken() != null) {
                return null;
            }
            rawTags.put(b, off, len, read);
            return read;
        } catch (IOException | K6LineReader.BadLineException e) {
            return null;
        }
    }

    /** The rest of a k6 line after its START_OBJECT. */
    K6Line object(JsonParser p) throws IOException, K6LineReader.BadLineException {
        type = null;
        metric = null;
        hasTime = false;
        badTime = null;
        hasValue = false;
        tags = K6Tags.EMPTY;
        name = null;
        metricType = "";
        contains = "";
        thresholds = null;
        boolean skipped = false;
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "type" -> type = v == JsonToken.VALUE_STRING ? intern(p) : null;
                case "metric" -> metric = v == JsonToken.VALUE_STRING ? intern(p) : null;
                case "data" -> {
                    if (v == JsonToken.START_OBJECT && (metric == null || "Metric".equals(type)
                            || wanted.test(metric) || withThresholds.contains(metric))) {
                        data(p);
                    } else {
                        skipped = v == JsonToken.START_OBJECT;
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new K6LineReader.BadLineException("is not JSON: the object does not end");
        }
        if (type == null) {
            throw new K6LineReader.BadLineException("is not a k6 JSON output line (no \"type\")");
        }
        if ("Point".equals(type)) {
            if (skipped) {
                return new K6Line.Other(type);
            }
            if (metric == null) {
                throw new K6LineReader.BadLineException("point has no \"metric\"");
            }
            if (badTime != null || !hasTime) {
                throw new K6LineReader.BadLineException("time '" + (badTime == null ? "" : badTime)
                        + "' is not an RFC 3339 timestamp");
            }
            if (!hasValue) {
                throw new K6LineReader.BadLineException(metric + " point has no numeric \"value\"");
            }
            return new K6Line.Point(metric, timeUs, value, tags);
        }
        if ("Metric".equals(type)) {
            String n = metric != null ? metric : name;
            if (n == null) {
                throw new K6LineReader.BadLineException("Metric line has no \"metric\" nor data \"name\"");
            }
            if (thresholds != null && !thresholds.isEmpty()) {
                withThresholds.add(n);
            }
            return new K6Line.MetricDecl(n, metricType, contains, thresholds == null ? List.of() : thresholds);
        }
        return new K6Line.Other(type);
    }

    private void data(JsonParser p) throws IOException, K6LineReader.BadLineException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "time" -> {
                    if (v == JsonToken.VALUE_STRING) {
                        long us = times.parseUs(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                        if (us == RfcTime.BAD) {
                            badTime = p.getText();
                        } else {
                            timeUs = us;
                            hasTime = true;
                        }
                    } else {
                        badTime = v == JsonToken.VALUE_NULL ? "" : p.getText();
                        p.skipChildren();
                    }
                }
                case "value" -> {
                    if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
                        value = p.getDoubleValue();
                        hasValue = true;
                    } else {
                        p.skipChildren();
                    }
                }
                case "tags" -> {
                    if (v == JsonToken.START_OBJECT) {
                        tags = rawTags(p);
                    } else {
                        p.skipChildren();
                    }
                }
                case "name" -> name = v == JsonToken.VALUE_STRING ? intern(p) : null;
                case "type" -> metricType = v == JsonToken.VALUE_STRING ? p.getText() : "";
                case "contains" -> contains = v == JsonToken.VALUE_STRING ? p.getText() : "";
                case "thresholds" -> thresholds = thresholds(p, v);
                default -> p.skipChildren();
            }
        }
    }

    /**
     * A {@code tags} object (the parser on its START_OBJECT): k6 repeats the same few tag objects byte for byte,
     * so the object's bytes are looked up first and only an unseen one is read field by field.
     */
    private K6Tags rawTags(JsonParser p) throws IOException, K6LineReader.BadLineException {
        long from = p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        long to = p.currentLocation().getByteOffset();
        if (from < 0 || to <= from) {
            throw new K6LineReader.BadLineException("is not JSON: the tags object cannot be located");
        }
        int start = sourceOff + (int) from;
        int len = (int) (to - from);
        K6Tags known = rawTags.get(source, start, len);
        if (known != null) {
            return known;
        }
        K6Tags read;
        try (JsonParser q = FACTORY.createParser(source, start, len)) {
            q.nextToken();
            read = tags(q);
        }
        rawTags.put(source, start, len, read);
        return read;
    }

    private K6Tags tags(JsonParser p) throws IOException, K6LineReader.BadLineException {
        int n = 0;
        int hash = 1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            String val;
            if (v == JsonToken.VALUE_STRING) {
                val = intern(p);
            } else if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                p.skipChildren();
                continue;
            } else if (v == JsonToken.VALUE_NULL) {
                continue;
            } else {
                val = strings.intern(p.getText());
            }
            if (n == tagKeys.length) {
                throw new K6LineReader.BadLineException("has more than " + tagKeys.length + " tags");
            }
            tagKeys[n] = key;
            tagValues[n] = val;
            hash = 31 * hash + key.hashCode() * 17 + val.hashCode();
            n++;
        }
        return n == 0 ? K6Tags.EMPTY : tagSets.intern(tagKeys, tagValues, n, hash);
    }

    /**
     * A Metric line's {@code thresholds}: each string or object entry decoded by {@link ThresholdDecl} (an object's
     * fields read as plain values); an entry of another kind, or thresholds that are not an array, are skipped.
     */
    private List<ThresholdDecl> thresholds(JsonParser p, JsonToken v) throws IOException, K6LineReader.BadLineException {
        List<ThresholdDecl> out = new ArrayList<>();
        if (v != JsonToken.START_ARRAY) {
            p.skipChildren();
            return out;
        }
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            Object entry;
            if (t == JsonToken.VALUE_STRING) {
                entry = p.getText();
            } else if (t == JsonToken.START_OBJECT) {
                Map<String, Object> object = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.currentName();
                    JsonToken fv = p.nextToken();
                    object.put(f, switch (fv) {
                        case VALUE_STRING -> p.getText();
                        case VALUE_TRUE -> Boolean.TRUE;
                        case VALUE_FALSE -> Boolean.FALSE;
                        case VALUE_NULL -> null;
                        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
                        default -> {
                            p.skipChildren();
                            yield fv == JsonToken.START_ARRAY ? List.of() : Map.of();
                        }
                    });
                }
                entry = object;
            } else {
                p.skipChildren();
                continue;
            }
            try {
                out.add(ThresholdDecl.decode(metric != null ? metric : name != null ? name : "its metric", entry));
            } catch (IllegalArgumentException e) {
                throw new K6LineReader.BadLineException(e.getMessage());
            }
        }
        return out;
    }

    private String intern(JsonParser p) throws IOException {
        return strings.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
    }


}
