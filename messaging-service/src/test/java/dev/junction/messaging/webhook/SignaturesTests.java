package dev.junction.messaging.webhook;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SignaturesTests {

	@Test
	void signsTheTimestampAndTheBodyWithHmacSha256() {
		// Expected value from Python: hmac.new(b"whsec_test", b'1700000000.{"id":"1"}',
		// hashlib.sha256).hexdigest()
		String header = Signatures.header("whsec_test", 1_700_000_000L,
				"{\"id\":\"1\"}".getBytes(StandardCharsets.UTF_8));
		assertThat(header)
			.isEqualTo("t=1700000000,v1=11bf4466ea17c3df3fd743af0b435368e16b7a05eb8eced85e8c4670767bdec5");
	}

	@Test
	void aDifferentTimestampGivesADifferentSignature() {
		byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
		assertThat(Signatures.v1("s", 1L, body)).isNotEqualTo(Signatures.v1("s", 2L, body));
	}

}
