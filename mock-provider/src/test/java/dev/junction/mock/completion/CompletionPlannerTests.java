package dev.junction.mock.completion;

import java.util.List;

import dev.junction.mock.behavior.Behavior;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.MissingNode;

import static org.assertj.core.api.Assertions.assertThat;

class CompletionPlannerTests {

	private static final ToolSpec TOOL = new ToolSpec("lookup", MissingNode.getInstance());

	@Test
	void splitsTheTextIntoNearEqualPieces() {
		Completion completion = CompletionPlanner.plan(conversation(null, List.of(), ToolChoice.AUTO, false),
				behavior(10, 3));

		assertThat(completion.pieces()).hasSize(3);
		assertThat(completion.text()).isEqualTo(MockText.reply("one two", 10));
		assertThat(completion.completionTokens()).isEqualTo(10);
		assertThat(completion.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(completion.promptTokens()).isEqualTo(MockText.estimateTokens(7));
	}

	@Test
	void neverMakesMorePiecesThanTokens() {
		assertThat(CompletionPlanner.plan(conversation(2, List.of(), ToolChoice.AUTO, false), behavior(10, 8)).pieces())
			.hasSize(2);
	}

	@Test
	void stopsForLengthWhenMaxTokensIsLower() {
		Completion completion = CompletionPlanner.plan(conversation(4, List.of(), ToolChoice.AUTO, false),
				behavior(10, 8));

		assertThat(completion.completionTokens()).isEqualTo(4);
		assertThat(completion.finishReason()).isEqualTo(FinishReason.LENGTH);
	}

	@Test
	void stopsNormallyWhenMaxTokensIsNotLower() {
		assertThat(CompletionPlanner.plan(conversation(10, List.of(), ToolChoice.AUTO, false), behavior(10, 8))
			.finishReason()).isEqualTo(FinishReason.STOP);
	}

	@Test
	void callsAToolUnlessTheLastMessageIsAToolResult() {
		assertThat(CompletionPlanner.plan(conversation(null, List.of(TOOL), ToolChoice.AUTO, false), behavior(10, 8))
			.toolCall()).isEqualTo(new ToolCall("lookup", "{}"));
		assertThat(CompletionPlanner.plan(conversation(null, List.of(TOOL), ToolChoice.AUTO, true), behavior(10, 8))
			.toolCall()).isNull();
		assertThat(CompletionPlanner.plan(conversation(null, List.of(TOOL), ToolChoice.REQUIRED, true), behavior(10, 8))
			.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(CompletionPlanner.plan(conversation(null, List.of(TOOL), ToolChoice.NONE, false), behavior(10, 8))
			.toolCall()).isNull();
	}

	@Test
	void splitsToolArgumentsIntoPiecesThatJoinBack() {
		ToolSpec tool = new ToolSpec("t", tools.jackson.databind.json.JsonMapper.shared()
			.readTree("{\"properties\":{\"city\":{\"type\":\"string\"}}}"));
		Completion completion = CompletionPlanner.plan(conversation(null, List.of(tool), ToolChoice.AUTO, false),
				behavior(10, 4));

		assertThat(completion.pieces()).hasSize(4);
		assertThat(String.join("", completion.pieces())).isEqualTo("{\"city\":\"mock\"}");
	}

	private static Conversation conversation(Integer maxTokens, List<ToolSpec> tools, ToolChoice choice,
			boolean endsWithToolResult) {
		return new Conversation("m", false, false, maxTokens, 7, "one two", endsWithToolResult, tools, choice);
	}

	private static Behavior behavior(int completionTokens, int streamChunks) {
		return new Behavior(0, 0, 0, 0, completionTokens, streamChunks, -1, false, false);
	}

}
