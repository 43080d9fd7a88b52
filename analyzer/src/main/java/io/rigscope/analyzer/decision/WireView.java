package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a decision's record whose JSON form (a verdict's body, a report's section) is spelled out by
 * {@code @JsonProperty} on the components that go out as they are and on the methods that convert (µs to
 * {@code _ms}, enums to their codes), in the order of its {@code @JsonPropertyOrder}. Nothing else is detected:
 * a component without the annotation (µs, internal names) stays out of the JSON, and units appear in the wire
 * names ({@code p99_ms}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@JacksonAnnotationsInside
@JsonAutoDetect(fieldVisibility = Visibility.NONE, getterVisibility = Visibility.NONE,
        isGetterVisibility = Visibility.NONE, setterVisibility = Visibility.NONE, creatorVisibility = Visibility.NONE)
public @interface WireView {
}
