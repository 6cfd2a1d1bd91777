package dev.junction.gateway.resilience;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;

/** Which failures another attempt may cure. */
final class Failures {

	private Failures() {
	}

	/** Worth retrying on the same provider: a transient upstream failure. */
	static boolean retryable(Throwable error) {
		return error instanceof UpstreamException upstream && upstream.isTransient();
	}

	/**
	 * Worth trying the next provider: a transient upstream failure, or a local refusal of
	 * this provider (open circuit, full queue, no usable key). Never a client error the
	 * next provider would reject too.
	 */
	static boolean worthFallingBack(Throwable error) {
		return retryable(error) || error instanceof DeniedException;
	}

}
