package io.rigscope.awsstandin;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * One response, encoded as an AWS protocol documents it: JSON 1.1 ({@link #json}, {@link #jsonError}), the query
 * protocol's XML ({@link #query}, {@link #ec2}, {@link #queryError}, {@link #ec2Error}), REST-JSON
 * ({@link #restJsonError}) and REST-XML ({@link #restXmlError}). {@link #escape} and {@link #tag} build XML
 * character data. A handler that must refuse deep inside throws {@link #refusal()}.
 */
public record AwsAnswer(int status, String contentType, byte[] body, Map<String, String> headers) {

    public static final String JSON_1_1 = "application/x-amz-json-1.1";

    public AwsAnswer {
        headers = Map.copyOf(headers);
    }

    public static AwsAnswer of(int status, String contentType, String body) {
        return new AwsAnswer(status, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    /** A JSON 1.1 answer (CloudWatch Logs, Performance Insights, Price List, Tagging, SSM). */
    public static AwsAnswer json(String body) {
        return of(200, JSON_1_1, body);
    }

    /** A JSON 1.1 error: {@code __type} is what the SDK maps to an exception. */
    public static AwsAnswer jsonError(int status, String type, String message) {
        return of(status, JSON_1_1, "{\"__type\":" + quote(type) + ",\"message\":" + quote(message) + "}");
    }

    /** A REST-JSON error (EventBridge Scheduler): the type in {@code x-amzn-ErrorType}. */
    public static AwsAnswer restJsonError(int status, String type, String message) {
        return of(status, "application/json", "{\"Message\":" + quote(message) + "}").with("x-amzn-ErrorType", type);
    }

    /** An XML answer as given (a canned fixture). */
    public static AwsAnswer xml(String body) {
        return of(200, "text/xml", body);
    }

    /** A query-protocol answer: {@code <ActionResponse xmlns><ActionResult>result</ActionResult>} and its request id. */
    public static AwsAnswer query(String action, String namespace, String result) {
        return xml("<" + action + "Response xmlns=\"" + namespace + "\"><" + action + "Result>" + result + "</" + action
                + "Result><ResponseMetadata><RequestId>" + UUID.randomUUID() + "</RequestId></ResponseMetadata></"
                + action + "Response>");
    }

    /** EC2's query answer: no Result element, a {@code requestId} first. */
    public static AwsAnswer ec2(String action, String namespace, String result) {
        return xml("<" + action + "Response xmlns=\"" + namespace + "\"><requestId>" + UUID.randomUUID()
                + "</requestId>" + result + "</" + action + "Response>");
    }

    /** A query-protocol error (RDS, CloudWatch, CloudFormation, IAM): {@code code} is what the SDK maps. */
    public static AwsAnswer queryError(int status, String code, String message) {
        return of(status, "text/xml", "<ErrorResponse><Error><Type>Sender</Type><Code>" + escape(code) + "</Code>"
                + "<Message>" + escape(message) + "</Message></Error><RequestId>" + UUID.randomUUID()
                + "</RequestId></ErrorResponse>");
    }

    /** EC2's error shape. */
    public static AwsAnswer ec2Error(int status, String code, String message) {
        return of(status, "text/xml", "<Response><Errors><Error><Code>" + escape(code) + "</Code><Message>"
                + escape(message) + "</Message></Error></Errors><RequestID>" + UUID.randomUUID() + "</RequestID></Response>");
    }

    /** A REST-XML error (S3); {@code more} is extra elements ({@code <Key>...}), already XML. */
    public static AwsAnswer restXmlError(int status, String code, String message, String more) {
        return of(status, "application/xml", "<Error><Code>" + escape(code) + "</Code><Message>" + escape(message)
                + "</Message>" + more + "</Error>");
    }

    /** This answer with one more header. */
    public AwsAnswer with(String header, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(header, value);
        return new AwsAnswer(status, contentType, body, h);
    }

    /** This answer as an exception {@link AwsStandIn} answers with. */
    public Refusal refusal() {
        return new Refusal(this);
    }

    /** Thrown by a handler: the stand-in sends its answer. */
    public static final class Refusal extends RuntimeException {
        private final transient AwsAnswer answer;

        Refusal(AwsAnswer answer) {
            super(answer.status() + " " + new String(answer.body(), StandardCharsets.UTF_8), null, false, false);
            this.answer = answer;
        }

        public AwsAnswer answer() {
            return answer;
        }
    }

    /** Text as XML character data: markup escaped, characters XML 1.0 cannot carry replaced by {@code ?}. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\t', '\n' -> out.append(c);
                case '\r' -> out.append("&#13;");
                default -> out.append(c < 0x20 || c == 0xFFFE || c == 0xFFFF ? '?' : c);
            }
        }
        return out.toString();
    }

    /** Appends {@code <name>value</name>}, the value escaped. */
    public static StringBuilder tag(StringBuilder x, String name, Object value) {
        return x.append('<').append(name).append('>').append(value == null ? "" : escape(String.valueOf(value))).append("</").append(name)
                .append('>');
    }

    private static String quote(String s) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
    }
}
