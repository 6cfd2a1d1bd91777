package dev.junction.gateway.calculator;

import io.grpc.Status;

/**
 * A calculation that failed: the calculator refused its operands, or could not be reached
 * in time. Carries the gRPC status code; no stack trace is filled in.
 */
public final class CalculatorException extends RuntimeException {

	private final Status.Code code;

	private CalculatorException(Status.Code code, String message) {
		super(message, null, false, false);
		this.code = code;
	}

	/** The failure a gRPC status stands for, with a message that says what went wrong. */
	static CalculatorException of(Status status, String address) {
		String description = (status.getDescription() != null) ? status.getDescription() : status.getCode().name();
		String message = switch (status.getCode()) {
			case INVALID_ARGUMENT, OUT_OF_RANGE -> description;
			case UNAVAILABLE -> "calculator service unavailable: " + description + " (" + address + ")";
			case DEADLINE_EXCEEDED -> "calculator service unavailable: no answer before the deadline (" + address + ")";
			case UNAUTHENTICATED, PERMISSION_DENIED ->
				"calculator service refused the gateway's credentials: " + description;
			default -> "calculator service failed: " + status.getCode() + ": " + description;
		};
		return new CalculatorException(status.getCode(), message);
	}

	public Status.Code code() {
		return this.code;
	}

	/**
	 * Whether the operands were at fault ({@code INVALID_ARGUMENT},
	 * {@code OUT_OF_RANGE}).
	 */
	public boolean isInvalidArgument() {
		return this.code == Status.Code.INVALID_ARGUMENT || this.code == Status.Code.OUT_OF_RANGE;
	}

	/** Whether the calculator could not be reached or did not answer in time. */
	public boolean isUnavailable() {
		return this.code == Status.Code.UNAVAILABLE || this.code == Status.Code.DEADLINE_EXCEEDED;
	}

}
