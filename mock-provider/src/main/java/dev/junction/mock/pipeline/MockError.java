package dev.junction.mock.pipeline;

/**
 * An answer with an error status, written in the provider's error shape by an
 * {@link ErrorFormat}. Carries no stack trace: it is an answer, not a failure of the
 * emulator.
 */
public final class MockError extends RuntimeException {

	private final int status;

	private final String param;

	private final String code;

	public MockError(int status, String message, String param, String code) {
		super(message, null, false, false);
		this.status = status;
		this.param = param;
		this.code = code;
	}

	/** A 400 about one request field (or null). */
	public static MockError badRequest(String message, String param) {
		return new MockError(400, message, param, null);
	}

	/**
	 * The error a request asked for with {@code x-mock-status}, or drew with
	 * {@code junction.mock.error-rate}.
	 */
	public static MockError injected(int status) {
		String message = switch (status) {
			case 429 -> "Rate limit reached (mock-provider injected a 429). Please try again later.";
			case 503, 529 -> "The server is overloaded (mock-provider injected a " + status + ").";
			default -> "mock-provider injected a " + status + " error.";
		};
		return new MockError(status, message, null, (status == 429) ? "rate_limit_exceeded" : null);
	}

	/** The HTTP status. */
	public int status() {
		return status;
	}

	/** The request field the error is about, or null. */
	public String param() {
		return param;
	}

	/** A machine-readable code for OpenAI's {@code error.code}, or null. */
	public String code() {
		return code;
	}

}
