package dev.junction.calculator.calculation;

import dev.junction.calculator.v1.Operator;
import io.grpc.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class OperationTests {

	@Test
	void computesEachOperation() {
		assertThat(Operation.ADD.apply(5, 3)).isEqualTo(8);
		assertThat(Operation.SUBTRACT.apply(5, 3)).isEqualTo(2);
		assertThat(Operation.MULTIPLY.apply(5, 3)).isEqualTo(15);
		assertThat(Operation.DIVIDE.apply(6, 3)).isEqualTo(2);
		assertThat(Operation.DIVIDE.apply(1, 3)).isEqualTo(1.0 / 3);
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0.0, -0.0 })
	void rejectsDivisionByZero(double zero) {
		assertThatExceptionOfType(CalculationException.class).isThrownBy(() -> Operation.DIVIDE.apply(1, zero))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.INVALID_ARGUMENT))
			.withMessageContaining("division by zero");
	}

	@ParameterizedTest
	@EnumSource(Operation.class)
	void rejectsNonFiniteOperands(Operation operation) {
		for (double bad : new double[] { Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY }) {
			assertThatExceptionOfType(CalculationException.class).isThrownBy(() -> operation.apply(bad, 1))
				.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.INVALID_ARGUMENT))
				.withMessageContaining("operand a must be a finite number");
			assertThatExceptionOfType(CalculationException.class).isThrownBy(() -> operation.apply(1, bad))
				.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.INVALID_ARGUMENT))
				.withMessageContaining("operand b must be a finite number");
		}
	}

	@Test
	void reportsOverflowOfFiniteOperandsAsOutOfRange() {
		assertThatExceptionOfType(CalculationException.class)
			.isThrownBy(() -> Operation.ADD.apply(Double.MAX_VALUE, Double.MAX_VALUE))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.OUT_OF_RANGE))
			.withMessageContaining("overflows");
		assertThatExceptionOfType(CalculationException.class)
			.isThrownBy(() -> Operation.SUBTRACT.apply(-Double.MAX_VALUE, Double.MAX_VALUE))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.OUT_OF_RANGE));
		assertThatExceptionOfType(CalculationException.class).isThrownBy(() -> Operation.MULTIPLY.apply(1e200, 1e200))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.OUT_OF_RANGE));
		assertThatExceptionOfType(CalculationException.class)
			.isThrownBy(() -> Operation.DIVIDE.apply(Double.MAX_VALUE, Double.MIN_VALUE))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(Status.Code.OUT_OF_RANGE));
	}

	@Test
	void keepsResultsThatUnderflowToZero() {
		assertThat(Operation.MULTIPLY.apply(Double.MIN_VALUE, 0.5)).isZero();
	}

	@Test
	void mapsStreamOperators() {
		assertThat(Operation.of(Operator.OPERATOR_ADD)).isEqualTo(Operation.ADD);
		assertThat(Operation.of(Operator.OPERATOR_SUBTRACT)).isEqualTo(Operation.SUBTRACT);
		assertThat(Operation.of(Operator.OPERATOR_MULTIPLY)).isEqualTo(Operation.MULTIPLY);
		assertThat(Operation.of(Operator.OPERATOR_DIVIDE)).isEqualTo(Operation.DIVIDE);
		assertThatExceptionOfType(CalculationException.class)
			.isThrownBy(() -> Operation.of(Operator.OPERATOR_UNSPECIFIED))
			.withMessage("operator is required");
	}

}
