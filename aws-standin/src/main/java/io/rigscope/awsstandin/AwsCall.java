package io.rigscope.awsstandin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One request as {@link AwsStandIn} read it: the signing service (from the {@code Authorization} header's
 * credential scope, {@code ?} unsigned), the action ({@code X-Amz-Target}'s operation, else the query protocol's
 * {@code Action} form field, else {@code METHOD /path}), the form fields (query protocol), the JSON body (JSON
 * protocols; {@code {}} when empty), the URL's query parameters, the raw body and the headers (first value each,
 * names in lower case).
 */
public record AwsCall(String service, String action, String method, String path, Map<String, String> query,
                      Map<String, String> form, JsonNode json, byte[] body, Map<String, String> headers) {

    /** A header's first value, or null. */
    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** The {@code Authorization} header (the SigV4 signature the SDK sent), or null. */
    public String authorization() {
        return header("Authorization");
    }
}
