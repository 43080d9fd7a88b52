package io.rigscope.model.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why a request failed, or {@link #NONE}. The wire form is the lower-case {@link #code()}. The compact sample
 * form carries the ordinal, so constants may only be appended.
 */
public enum ErrorKind {
    NONE("none"),
    TIMEOUT("timeout"),
    REFUSED("refused"),
    RESET("reset"),
    HTTP_4XX("4xx"),
    HTTP_5XX("5xx"),
    OTHER("other"),
    /**
     * A response arrived but failed the scenario's response check (a status outside the check's list below 400,
     * or a body check): it counts as failed, like every kind but {@link #NONE}. The sample keeps the status as
     * received.
     */
    CHECK("check");

    private final String code;

    ErrorKind(String code) {
        this.code = code;
    }

    @JsonValue
    public String code() {
        return code;
    }

    @JsonCreator
    public static ErrorKind ofCode(String code) {
        for (ErrorKind kind : values()) {
            if (kind.code.equals(code)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown error kind '" + code + "'");
    }

    /** The error kind of an HTTP status that did arrive. */
    public static ErrorKind ofStatus(int status) {
        if (status >= 500) {
            return HTTP_5XX;
        }
        if (status >= 400) {
            return HTTP_4XX;
        }
        return NONE;
    }
}
