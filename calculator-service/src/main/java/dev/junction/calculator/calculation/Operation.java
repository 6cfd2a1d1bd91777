package dev.junction.calculator.calculation;

import java.util.function.DoubleBinaryOperator;

import dev.junction.calculator.v1.Operator;

/** The four operations, with the checks that keep results finite and meaningful. */
public enum Operation {

	ADD("add", (a, b) -> a + b),

	SUBTRACT("subtract", (a, b) -> a - b),

	MULTIPLY("multiply", (a, b) -> a * b),

	DIVIDE("divide", (a, b) -> a / b);

	private final String verb;

	private final DoubleBinaryOperator function;

	Operation(String verb, DoubleBinaryOperator function) {
		this.verb = verb;
		this.function = function;
	}

	/**
	 * Applies the operation.
	 * @throws CalculationException {@code INVALID_ARGUMENT} for a NaN or infinite operand
	 * or a zero divisor, {@code OUT_OF_RANGE} when finite operands give a result beyond
	 * the range of a double
	 */
	public double apply(double a, double b) {
		requireFinite("a", a);
		requireFinite("b", b);
		if (this == DIVIDE && b == 0.0) {
			throw CalculationException.invalidArgument("division by zero: b must not be 0");
		}
		double result = this.function.applyAsDouble(a, b);
		if (Double.isInfinite(result)) {
			throw CalculationException.outOfRange(
					"cannot " + this.verb + " " + a + " and " + b + ": the result overflows the range of a double");
		}
		return result;
	}

	/**
	 * The operation a stream request names, or {@code INVALID_ARGUMENT} if it names none.
	 */
	public static Operation of(Operator operator) {
		return switch (operator) {
			case OPERATOR_ADD -> ADD;
			case OPERATOR_SUBTRACT -> SUBTRACT;
			case OPERATOR_MULTIPLY -> MULTIPLY;
			case OPERATOR_DIVIDE -> DIVIDE;
			case OPERATOR_UNSPECIFIED -> throw CalculationException.invalidArgument("operator is required");
			case UNRECOGNIZED -> throw CalculationException.invalidArgument("operator is not recognized");
		};
	}

	private static void requireFinite(String name, double value) {
		if (!Double.isFinite(value)) {
			throw CalculationException.invalidArgument("operand " + name + " must be a finite number, got " + value);
		}
	}

}
