package io.rigscope.model.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.IOException;
import java.util.Map;

/**
 * A {@link Marker}'s JSON (and Smile): the header, {@code kind}, {@code phase}, then the body as {@code data}, the
 * same fields in the same order as when {@code data} was a plain map, so the bytes are unchanged. Decoding reads the
 * {@code data} object as Jackson always has (whole numbers as {@code Long}, others as {@code Double}) and builds
 * the kind's body from it ({@link MarkerBody#of}).
 */
final class MarkerJson {

    private MarkerJson() {
    }

    /** The wire shape, as Jackson reads it before the body is typed. */
    record Raw(String run, int rep, String src, long ts, Marker.Kind kind, String phase, Map<String, Object> data) {
    }

    static final class Writer extends JsonSerializer<Marker> {
        @Override
        public void serialize(Marker m, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject(m);
            gen.writeStringField("run", m.run());
            gen.writeNumberField("rep", m.rep());
            gen.writeStringField("src", m.src());
            gen.writeNumberField("ts", m.ts());
            gen.writeStringField("kind", m.kind().name());
            gen.writeStringField("phase", m.phase());
            gen.writeFieldName("data");
            provider.defaultSerializeValue(m.body().toData(), gen);
            gen.writeEndObject();
        }
    }

    static final class Reader extends JsonDeserializer<Marker> {
        @Override
        public Marker deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            Raw raw = ctxt.readValue(p, Raw.class);
            if (raw == null) {
                return null;
            }
            try {
                if (raw.kind() == null) {
                    throw new NullPointerException("kind is missing");
                }
                return new Marker(raw.run(), raw.rep(), raw.src(), raw.ts(), raw.phase(),
                        MarkerBody.of(raw.kind(), raw.data()));
            } catch (RuntimeException e) {
                throw ctxt.instantiationException(Marker.class, e);
            }
        }
    }
}
