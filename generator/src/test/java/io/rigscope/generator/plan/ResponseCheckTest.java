package io.rigscope.generator.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.plan.ResponseCheck.JsonCheck;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResponseCheckTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ResponseCheck json(String path, Boolean exists, Object equals) {
        return new ResponseCheck(null, null, null, new JsonCheck(path, exists, equals));
    }

    @Test
    void withoutAStatusListAny2xxPassesAndNothingElse() {
        ResponseCheck check = new ResponseCheck(null, null, null, null);
        assertThat(check.failure(200, new byte[0], false)).isNull();
        assertThat(check.failure(299, new byte[0], false)).isNull();
        assertThat(check.failure(302, new byte[0], false)).isEqualTo("status 302 not 2xx");
        assertThat(check.failure(404, new byte[0], false)).isEqualTo("status 404 not 2xx");
        assertThat(check.needsBody()).isFalse();
        assertThat(new ResponseCheck(List.of(), null, null, null).accepts(204)).isTrue();
    }

    @Test
    void aStatusListIsTheOnlyStatusesThatPass() {
        ResponseCheck check = new ResponseCheck(List.of(200, 201), null, null, null);
        assertThat(check.failure(201, new byte[0], false)).isNull();
        assertThat(check.failure(204, new byte[0], false)).isEqualTo("status 204 not in [200, 201]");
        assertThat(check.failure(404, new byte[0], false)).isEqualTo("status 404 not in [200, 201]");
        assertThat(new ResponseCheck(List.of(404), null, null, null).failure(404, new byte[0], false)).isNull();
        assertThatThrownBy(() -> new ResponseCheck(List.of(42), null, null, null))
                .hasMessage("check status 42 is not an HTTP status (100-599)");
    }

    @Test
    void bodyContainsAndNotContainsCompareUtf8Bytes() {
        ResponseCheck ok = new ResponseCheck(null, "\"ok\":true", null, null);
        assertThat(ok.failure(200, bytes("{\"ok\":true}"), false)).isNull();
        assertThat(ok.failure(200, bytes("{\"ok\":false}"), false)).isEqualTo("body does not contain '\"ok\":true'");
        ResponseCheck noErrors = new ResponseCheck(null, null, "errors", null);
        assertThat(noErrors.failure(200, bytes("{\"data\":{}}"), false)).isNull();
        assertThat(noErrors.failure(200, bytes("{\"errors\":[{\"message\":\"x\"}]}"), false))
                .isEqualTo("body contains 'errors'");
        assertThat(noErrors.needsBody()).isTrue();
        ResponseCheck unicode = new ResponseCheck(null, "é中", null, null);
        assertThat(unicode.failure(200, bytes("xxé中yy"), false)).isNull();
        assertThat(unicode.failure(200, bytes("xxé"), false)).isNotNull();
        assertThat(noErrors.failure(200, bytes("erro"), false)).isNull();
    }

    @Test
    void onlyTheGivenLengthOfTheBodyIsSearched() {
        byte[] buffer = bytes("{\"data\":1}errors");
        ResponseCheck noErrors = new ResponseCheck(null, null, "errors", null);
        assertThat(noErrors.failure(200, buffer, 10, false)).isNull();
        assertThat(noErrors.failure(200, buffer, buffer.length, false)).isNotNull();
    }

    @Test
    void onATruncatedBodyNotContainsFailsUnlessItCanTellAndContainsPassesOnlyWhenFound() {
        byte[] head = bytes("{\"data\":[1,2,3");
        assertThat(new ResponseCheck(null, null, "errors", null).failure(200, head, true))
                .isEqualTo("body truncated at 14 bytes: cannot tell it does not contain 'errors'");
        assertThat(new ResponseCheck(null, null, "data", null).failure(200, head, true))
                .isEqualTo("body contains 'data'");
        assertThat(new ResponseCheck(null, "data", null, null).failure(200, head, true)).isNull();
        assertThat(new ResponseCheck(null, "done", null, null).failure(200, head, true))
                .isEqualTo("body does not contain 'done' in its first 14 bytes (truncated)");
        assertThat(json("$.data", true, null).failure(200, head, true))
                .isEqualTo("body truncated at 14 bytes: $.data not checked");
    }

    @Test
    void jsonExistsFollowsMembersAndIndexes() {
        byte[] body = bytes("{\"data\":{\"e0\":null,\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"a.b\":1}}");
        assertThat(json("$.data.e0", true, null).failure(200, body, false)).isNull();
        assertThat(json("$.data.e1", true, null).failure(200, body, false)).isEqualTo("$.data.e1 does not exist");
        assertThat(json("$.data.items[1].id", true, null).failure(200, body, false)).isNull();
        assertThat(json("$.data.items[2].id", true, null).failure(200, body, false)).isNotNull();
        assertThat(json("$.data['a.b']", true, null).failure(200, body, false)).isNull();
        assertThat(json("$.errors", false, null).failure(200, body, false)).isNull();
        assertThat(json("$.data", false, null).failure(200, body, false)).isEqualTo("$.data exists");
        assertThat(json("$.data.items.id", true, null).failure(200, body, false)).isNotNull();
        assertThat(json("$", true, null).failure(200, body, false)).isNull();
    }

    @Test
    void jsonEqualsComparesStringsNumbersNumericallyBooleansAndNull() throws Exception {
        byte[] body = bytes("{\"n\":1.0,\"big\":12345678901234567890,\"s\":\"1\",\"t\":true,\"z\":null}");
        assertThat(json("$.n", null, 1).failure(200, body, false)).isNull();
        assertThat(json("$.n", null, 1.0d).failure(200, body, false)).isNull();
        assertThat(json("$.n", null, new BigDecimal("1.000")).failure(200, body, false)).isNull();
        assertThat(json("$.n", null, 2L).failure(200, body, false)).isEqualTo("$.n is 1.0, not 2");
        assertThat(json("$.big", null, new java.math.BigInteger("12345678901234567890")).failure(200, body, false)).isNull();
        assertThat(json("$.s", null, "1").failure(200, body, false)).isNull();
        assertThat(json("$.s", null, 1).failure(200, body, false)).isEqualTo("$.s is \"1\", not 1");
        assertThat(json("$.n", null, "1").failure(200, body, false)).isEqualTo("$.n is 1.0, not \"1\"");
        assertThat(json("$.t", null, true).failure(200, body, false)).isNull();
        assertThat(json("$.t", null, false).failure(200, body, false)).isEqualTo("$.t is true, not false");
        assertThat(json("$.z", null, JsonCheck.NULL).failure(200, body, false)).isNull();
        assertThat(json("$.t", null, JsonCheck.NULL).failure(200, body, false)).isEqualTo("$.t is true, not null");
        assertThat(json("$.q", null, 1).failure(200, body, false)).isEqualTo("$.q does not exist");
        assertThat(json("$.n", null, 1).failure(200, bytes("<html>"), false)).startsWith("body is not JSON");
        assertThat(json("$.n", null, 1).failure(200, new byte[0], false)).isEqualTo("body is not JSON (empty)");
        // what a reader holding the config's tree passes
        ObjectMapper m = new ObjectMapper();
        assertThat(new JsonCheck("$.z", null, m.readTree("null")).equals()).isSameAs(JsonCheck.NULL);
        assertThat(new JsonCheck("$.s", null, m.readTree("\"1\"")).equals()).isEqualTo("1");
        assertThat(json("$.n", null, m.readTree("1")).failure(200, body, false)).isNull();
    }

    @Test
    void aBadJsonCheckIsRejectedWhenBuilt() {
        assertThatThrownBy(() -> new JsonCheck("data.id", true, null)).hasMessageContaining("must start with $");
        assertThatThrownBy(() -> new JsonCheck("$.data[x]", true, null)).hasMessageContaining("cannot read it from '[x]'");
        assertThatThrownBy(() -> new JsonCheck("$..a", true, null)).hasMessageContaining("cannot read it from '..a'");
        assertThatThrownBy(() -> new JsonCheck("$.a", true, 1)).hasMessageContaining("give exactly one of exists");
        assertThatThrownBy(() -> new JsonCheck("$.a", null, null)).hasMessageContaining("give exactly one of exists");
        assertThatThrownBy(() -> new JsonCheck("$.a", null, List.of(1))).hasMessageContaining("equals must be");
        assertThatThrownBy(() -> new JsonCheck("$.a", null, Double.NaN)).hasMessageContaining("is not a JSON number");
        assertThatThrownBy(() -> new ResponseCheck(null, "", null, null)).hasMessage("check body_contains is empty");
    }

    @Test
    void theChecksAreTriedInOrderAndTheFirstFailureIsTheReason() {
        ResponseCheck all = new ResponseCheck(List.of(200), "data", "errors", new JsonCheck("$.data.id", true, null));
        assertThat(all.failure(500, bytes("{\"errors\":1}"), false)).isEqualTo("status 500 not in [200]");
        assertThat(all.failure(200, bytes("{\"errors\":1}"), false)).isEqualTo("body does not contain 'data'");
        assertThat(all.failure(200, bytes("{\"data\":{},\"errors\":1}"), false)).isEqualTo("body contains 'errors'");
        assertThat(all.failure(200, bytes("{\"data\":{}}"), false)).isEqualTo("$.data.id does not exist");
        assertThat(all.failure(200, bytes("{\"data\":{\"id\":7}}"), false)).isNull();
    }

    @Test
    void itsConfigDataHasTheConfigKeysInAFixedOrder() {
        ResponseCheck check = new ResponseCheck(List.of(200, 201), "a", "b", new JsonCheck("$.x", null, JsonCheck.NULL));
        Map<String, Object> m = check.toMap();
        assertThat(m.keySet()).containsExactly("status", "body_contains", "body_not_contains", "json");
        assertThat(m.get("status")).isEqualTo(List.of(200, 201));
        assertThat(List.copyOf(((Map<?, ?>) m.get("json")).keySet())).isEqualTo(List.of("path", "equals"));
        assertThat(((Map<?, ?>) m.get("json")).get("equals")).isNull();
        assertThat(new ResponseCheck(null, null, null, new JsonCheck("$.x", false, null)).toMap())
                .containsEntry("status", "2xx").containsEntry("json", Map.of("path", "$.x", "exists", false));
    }

    @Test
    void aLongSearchedTextIsShortenedInTheReason() {
        char[] text = new char[100];
        Arrays.fill(text, 'e');
        String s = new String(text);
        assertThat(new ResponseCheck(null, s, null, null).failure(200, new byte[0], false))
                .isEqualTo("body does not contain '" + s.substring(0, 40) + "...'");
    }
}
