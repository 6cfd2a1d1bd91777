package dev.junction.gateway.rpc;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.junction.gateway.calculator.CalculatorClient.Operation;
import dev.junction.gateway.calculator.LazyCalculator;
import dev.junction.gateway.requestid.RequestId;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@code calculator.add|subtract|multiply|divide}, answered by calculator-service over
 * gRPC.
 */
public final class CalculatorProcedures {

	private final LazyCalculator calculator;

	public CalculatorProcedures(LazyCalculator calculator) {
		this.calculator = calculator;
	}

	public List<Procedure> procedures() {
		return Arrays.stream(Operation.values()).map(this::procedure).toList();
	}

	private Procedure procedure(Operation operation) {
		String name = operation.name().toLowerCase(Locale.ROOT);
		return Procedure.of("calculator." + name, "a " + name
				+ " b on IEEE 754 doubles, by calculator-service (invalid or overflowing operands are invalid params)",
				Procedure.Type.QUERY,
				List.of(Param.required("a", "number",
						"The first operand"), Param.required("b", "number", "The second operand")),
				Schemas.type("number"),
				(arguments, call) -> this.calculator
					.with((client) -> client.calculate(operation, arguments.number("a"), arguments.number("b"),
							RequestId.of(call.exchange())))
					.map((result) -> (JsonNode) JsonNodeFactory.instance.numberNode(result)));
	}

}
