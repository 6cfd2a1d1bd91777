package dev.junction.calculator.calculation;

import io.grpc.Status;

/**
 * An operation that cannot produce a finite result, with the gRPC status that reports it.
 * Thrown on the request path, so it carries no stack trace.
 */
public final class CalculationException extends RuntimeException {

	private final Status.Code code;

	private CalculationException(Status.Code code, String message) {
		super(message, null, false, false);
		this.code = code;
	}

	static CalculationException invalidArgument(String message) {
		return new CalculationException(Status.Code.INVALID_ARGUMENT, message);
	}

	static CalculationException outOfRange(String message) {
		return new CalculationException(Status.Code.OUT_OF_RANGE, message);
	}

	/** The gRPC status code of this failure. */
	public Status.Code code() {
		return this.code;
	}

	/** The failure as a gRPC status with its message as description. */
	public Status toStatus() {
		return Status.fromCode(this.code).withDescription(getMessage());
	}

}
