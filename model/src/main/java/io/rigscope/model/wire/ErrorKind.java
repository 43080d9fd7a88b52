package io.rigscope.model.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Why a request failed, or {@link #NONE}. The wire form is the lower-case {@link #code()}. */
public enum ErrorKind {
    NONE("none"),
    TIMEOUT("timeout"),
    REFUSED("refused"),
    RESET("reset"),
    HTTP_4XX("4xx"),
    HTTP_5XX("5xx"),
    OTHER("other");

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
