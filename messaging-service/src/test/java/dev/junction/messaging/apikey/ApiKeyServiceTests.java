package dev.junction.messaging.apikey;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

import dev.junction.database.Notifications;
import dev.junction.messaging.common.MessagingProperties;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.ProblemType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

class ApiKeyServiceTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private final ApiKeyRepository repository = mock(ApiKeyRepository.class);

	private final TransactionalOperator transaction = mock(TransactionalOperator.class);

	private final ApiKeyService service = new ApiKeyService(this.repository, this.transaction, Clock.systemUTC(),
			new MessagingProperties(null,
					new MessagingProperties.Http(DataSize.ofMegabytes(10), Duration.ofSeconds(30),
							Duration.ofSeconds(30)),
					Duration.ofSeconds(60), Duration.ofSeconds(15)),
			Notifications.none());

	@BeforeEach
	void runTransactionsAsGiven() {
		given(this.transaction.transactional(any(Mono.class))).willAnswer((invocation) -> invocation.getArgument(0));
	}

	@Test
	void validatesAKeyFromTheCacheAfterTheFirstLookup() {
		ApiKey key = key("raw-key", null);
		given(this.repository.findByHash(key.keyHash())).willReturn(Mono.just(key));
		for (int i = 0; i < 3; i++) {
			StepVerifier.create(this.service.authenticate("raw-key"))
				.assertNext((caller) -> assertThat(caller.keyId()).isEqualTo(key.id()))
				.expectComplete()
				.verify(WAIT);
		}
		verify(this.repository, times(1)).findByHash(key.keyHash());
	}

	@Test
	void revokingEvictsTheCachedKey() {
		ApiKey key = key("to-revoke", null);
		given(this.repository.findByHash(key.keyHash())).willReturn(Mono.just(key),
				Mono.just(key("to-revoke", Instant.now())));
		given(this.repository.findById(key.id())).willReturn(Mono.just(key));
		given(this.repository.revoke(any(), any())).willReturn(Mono.just(key));
		StepVerifier.create(this.service.authenticate("to-revoke")).expectNextCount(1).expectComplete().verify(WAIT);
		StepVerifier.create(this.service.revoke(ADMIN, key.id())).expectNextCount(1).expectComplete().verify(WAIT);
		StepVerifier.create(this.service.authenticate("to-revoke"))
			.expectErrorSatisfies((ex) -> assertThat(((ApiException) ex).type()).isEqualTo(ProblemType.UNAUTHORIZED))
			.verify(WAIT);
		verify(this.repository, times(2)).findByHash(key.keyHash());
	}

	@Test
	void rejectsUnknownKeys() {
		given(this.repository.findByHash(anyString())).willReturn(Mono.empty());
		StepVerifier.create(this.service.authenticate("nobody"))
			.expectErrorSatisfies((ex) -> assertThat(((ApiException) ex).type()).isEqualTo(ProblemType.UNAUTHORIZED))
			.verify(WAIT);
	}

	@Test
	void storesOnlyTheHash() {
		given(this.repository.insert(any())).willAnswer((invocation) -> Mono.just(invocation.getArgument(0)));
		StepVerifier.create(this.service.create(ADMIN, "k", EnumSet.of(Scope.READ), Set.of(), null))
			.assertNext((issued) -> {
				assertThat(issued.key().keyHash()).isEqualTo(ApiKeys.hash(issued.rawKey())).hasSize(64);
				assertThat(issued.key().keyHash()).doesNotContain(issued.rawKey());
			})
			.expectComplete()
			.verify(WAIT);
	}

	@Test
	void rejectsAnExpiredKey() {
		ApiKey expired = new ApiKey(UUID.randomUUID(), "test", ApiKeys.hash("old"), ApiKeys.prefix("old"),
				EnumSet.of(Scope.READ), Set.of(), Instant.now().minusSeconds(60), Instant.now().minusSeconds(1), null);
		given(this.repository.findByHash(expired.keyHash())).willReturn(Mono.just(expired));
		StepVerifier.create(this.service.authenticate("old"))
			.expectErrorSatisfies((ex) -> assertThat(ex.getMessage()).contains("expired"))
			.verify(WAIT);
	}

	private static final Caller ADMIN = new Caller(UUID.randomUUID(), "admin", EnumSet.of(Scope.ADMIN), Set.of(), null,
			"hash");

	private static ApiKey key(String raw, Instant revokedAt) {
		return new ApiKey(UUID.nameUUIDFromBytes(raw.getBytes()), "test", ApiKeys.hash(raw), ApiKeys.prefix(raw),
				EnumSet.of(Scope.WRITE), Set.of(), Instant.now(), null, revokedAt);
	}

}
