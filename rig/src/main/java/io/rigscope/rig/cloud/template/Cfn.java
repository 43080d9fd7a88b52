package io.rigscope.rig.cloud.template;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** CloudFormation's intrinsic functions and ordered maps, in their long (JSON) form. */
final class Cfn {

    private Cfn() {
    }

    /** An ordered map of key-value pairs: {@code map("A", 1, "B", 2)}; null values are left out. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                m.put((String) keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return m;
    }

    static Map<String, Object> ref(String logicalId) {
        return Map.of("Ref", logicalId);
    }

    static Map<String, Object> getAtt(String logicalId, String attribute) {
        return Map.of("Fn::GetAtt", List.of(logicalId, attribute));
    }

    static Map<String, Object> sub(String text) {
        return Map.of("Fn::Sub", text);
    }

    static Map<String, Object> base64(Object value) {
        return Map.of("Fn::Base64", value);
    }

    /** A {@code Fn::Sub} string's literal text: {@code ${} written as {@code ${!}}. */
    static String subLiteral(String text) {
        return text.replace("${", "${!");
    }

    /** An IAM policy document allowing {@code actions} on {@code resource}. */
    static Map<String, Object> allow(List<String> actions, Object resource) {
        return map("Effect", "Allow", "Action", actions, "Resource", resource);
    }

    /** A trust policy letting {@code service} assume the role. */
    static Map<String, Object> trust(String service) {
        return map("Version", "2012-10-17", "Statement", List.of(map("Effect", "Allow",
                "Principal", map("Service", List.of(service)), "Action", List.of("sts:AssumeRole"))));
    }
}
