package io.rigscope.generator;

import io.netty.channel.ConnectTimeoutException;
import io.rigscope.generator.http.HttpConnection;
import io.rigscope.model.wire.ErrorKind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;

/** Classifies a request's failure into the wire's {@link ErrorKind}. */
final class ErrorKinds {

    private ErrorKinds() {
    }

    static ErrorKind of(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException || t instanceof ConnectTimeoutException) {
                return ErrorKind.TIMEOUT;
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
                return ErrorKind.REFUSED;
            }
            if (t instanceof HttpConnection.PrematureCloseException || t instanceof ClosedChannelException) {
                return ErrorKind.RESET;
            }
            if (t instanceof IOException io && io.getMessage() != null
                    && (io.getMessage().contains("reset") || io.getMessage().contains("Broken pipe"))) {
                return ErrorKind.RESET;
            }
        }
        return ErrorKind.OTHER;
    }
}
