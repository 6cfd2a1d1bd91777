package dev.junction.mock.completion;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MockTextTests {

	@Test
	void countsThePromptWordsThenEchoesThemCyclically() {
		assertThat(MockText.reply("hello  world\n", 6)).isEqualTo("Received 2 words: hello world hello");
	}

	@Test
	void makesExactlyTheRequestedTokens() {
		assertThat(MockText.tokens("a b c", 40)).hasSize(40);
		assertThat(MockText.reply("a b c", 1)).isEqualTo("Received");
	}

	@Test
	void fillsWithAWordWhenThePromptHasNone() {
		assertThat(MockText.reply("   ", 5)).isEqualTo("Received 0 words: mock mock");
		assertThat(MockText.reply(null, 4)).isEqualTo("Received 0 words: mock");
	}

	@Test
	void usesTheSingularForOneWord() {
		assertThat(MockText.reply("hi", 4)).isEqualTo("Received 1 word: hi");
	}

	@Test
	void estimatesFourCharactersPerTokenAndAtLeastOne() {
		assertThat(MockText.estimateTokens(0)).isEqualTo(1);
		assertThat(MockText.estimateTokens(4)).isEqualTo(1);
		assertThat(MockText.estimateTokens(5)).isEqualTo(2);
	}

}
