package dev.junction.messaging.webhook;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SignaturesTests {

	@Test
	void signsWithHmacSha256() {
		// RFC 4231, test case 2
		String signature = Signatures.sign("Jefe", "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8));
		assertThat(signature).isEqualTo("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	}

}
