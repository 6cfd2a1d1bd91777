package dev.junction.netty;

import java.time.Duration;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * The request body stopped arriving: nothing came for the read timeout. Signalled to
 * whoever reads the body; an application answers it 408 in its own protocol's shape.
 */
public final class RequestBodyTimeoutException extends ResponseStatusException {

	private final Duration timeout;

	RequestBodyTimeoutException(Duration timeout) {
		super(HttpStatus.REQUEST_TIMEOUT,
				"The request body stopped arriving: nothing was received for " + timeout.toMillis() + " ms.");
		this.timeout = timeout;
	}

	/** The read timeout that expired. */
	public Duration timeout() {
		return this.timeout;
	}

	@Override
	public synchronized Throwable fillInStackTrace() {
		return this;
	}

}
