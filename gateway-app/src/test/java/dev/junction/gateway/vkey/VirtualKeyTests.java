package dev.junction.gateway.vkey;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VirtualKeyTests {

	@Test
	void allowsTheModelsItsPatternsMatch() {
		VirtualKey key = key(List.of("emu/*", "fast", "anthropic/claude-*-4*"), null, null);
		assertThat(key.allows("emu/gpt-4o-mini")).isTrue();
		assertThat(key.allows("fast")).isTrue();
		assertThat(key.allows("anthropic/claude-sonnet-4-5")).isTrue();
		assertThat(key.allows("emulator/gpt-4o")).isFalse();
		assertThat(key.allows("faster")).isFalse();
		assertThat(key.allows("openai/gpt-4o")).isFalse();
		assertThat(key(List.of(), null, null).allows("anything/at-all")).isTrue();
	}

	@Test
	void isActiveUntilRevokedOrExpired() {
		Instant now = Instant.parse("2026-01-01T00:00:00Z");
		assertThat(key(List.of(), null, null).activeAt(now)).isTrue();
		assertThat(key(List.of(), now.plusSeconds(1), null).activeAt(now)).isTrue();
		assertThat(key(List.of(), now, null).activeAt(now)).isFalse();
		assertThat(key(List.of(), null, now.minusSeconds(1)).activeAt(now)).isFalse();
	}

	@Test
	void aSecretNamesItsKeyAndMatchesOnlyItsOwnHash() {
		String secret = Secrets.newSecret("vk_0123456789abcdef");
		assertThat(Secrets.idOf(secret)).isEqualTo("vk_0123456789abcdef");
		assertThat(secret.length()).isGreaterThan(60);
		String hash = Secrets.hash(secret);
		assertThat(Secrets.verify(secret, hash)).isTrue();
		assertThat(Secrets.verify(secret + "x", hash)).isFalse();
		assertThat(Secrets.verify(Secrets.newSecret("vk_0123456789abcdef"), hash)).isFalse();
		assertThat(Secrets.idOf("sk-not-a-virtual-key")).isNull();
		assertThat(Secrets.idOf("jk-no-dot")).isNull();
	}

	@Test
	void periodsStartAndEndInUtc() {
		Instant now = Instant.parse("2026-03-15T10:00:00Z");
		assertThat(Period.DAILY.start(now)).hasToString("2026-03-15");
		assertThat(Period.DAILY.end(now)).isEqualTo(Instant.parse("2026-03-16T00:00:00Z"));
		assertThat(Period.MONTHLY.start(now)).hasToString("2026-03-01");
		assertThat(Period.MONTHLY.end(now)).isEqualTo(Instant.parse("2026-04-01T00:00:00Z"));
		assertThat(Period.TOTAL.end(now)).isNull();
	}

	private static VirtualKey key(List<String> models, Instant expires, Instant revoked) {
		return new VirtualKey("vk_1", "", "k", null, models, null, null, null, expires, revoked, Instant.EPOCH);
	}

}
