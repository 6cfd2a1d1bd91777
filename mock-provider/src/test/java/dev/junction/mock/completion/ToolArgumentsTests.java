package dev.junction.mock.completion;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

import static org.assertj.core.api.Assertions.assertThat;

class ToolArgumentsTests {

	private static final JsonMapper JSON = JsonMapper.shared();

	@Test
	void fillsRequiredPropertiesByType() {
		String schema = """
				{"type":"object","properties":{"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},
				 "b":{"type":"boolean"},"a":{"type":"array"},"e":{"enum":["x","y"]},"skip":{"type":"string"},
				 "o":{"type":"object","properties":{"deep":{"type":["string","null"]}}}},
				 "required":["s","i","n","b","a","e","o"]}""";

		assertThat(ToolArguments.forSchema(JSON.readTree(schema)))
			.isEqualTo("{\"s\":\"mock\",\"i\":1,\"n\":1,\"b\":true,\"a\":[],\"e\":\"x\",\"o\":{\"deep\":\"mock\"}}");
	}

	@Test
	void fillsEveryPropertyWhenNoneIsRequired() {
		assertThat(ToolArguments.forSchema(JSON.readTree("{\"properties\":{\"a\":{},\"b\":{\"type\":\"integer\"}}}")))
			.isEqualTo("{\"a\":\"mock\",\"b\":1}");
	}

	@Test
	void givesAnEmptyObjectWithoutASchema() {
		assertThat(ToolArguments.forSchema(MissingNode.getInstance())).isEqualTo("{}");
	}

}
