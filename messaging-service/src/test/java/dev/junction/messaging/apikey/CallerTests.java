package dev.junction.messaging.apikey;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.ProblemType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallerTests {

	private static final UUID A = UUID.randomUUID();

	private static final UUID B = UUID.randomUUID();

	private static final Instant LATER = Instant.parse("2099-01-01T00:00:00Z");

	@Test
	void anUnrestrictedAdminIssuesAndManagesAnyKey() {
		Caller admin = caller(EnumSet.of(Scope.ADMIN), Set.of(), null);
		assertThatNoException().isThrownBy(() -> admin.requireCanIssue(EnumSet.allOf(Scope.class), Set.of(), null));
		assertThat(admin.canManage(key(Set.of()))).isTrue();
		assertThat(admin.canManage(key(Set.of(A, B)))).isTrue();
	}

	@Test
	void aRestrictedKeyIssuesOnlyKeysWithinItsInstances() {
		Caller scoped = caller(EnumSet.of(Scope.ADMIN), Set.of(A), null);
		assertThatNoException().isThrownBy(() -> scoped.requireCanIssue(EnumSet.of(Scope.ADMIN), Set.of(A), null));
		assertForbidden(() -> scoped.requireCanIssue(EnumSet.of(Scope.READ), Set.of(), null));
		assertForbidden(() -> scoped.requireCanIssue(EnumSet.of(Scope.READ), Set.of(B), null));
		assertForbidden(() -> scoped.requireCanIssue(EnumSet.of(Scope.READ), List.of(A, B), null));
	}

	@Test
	void aRestrictedKeyManagesOnlyKeysWithinItsInstances() {
		Caller scoped = caller(EnumSet.of(Scope.ADMIN), Set.of(A), null);
		assertThat(scoped.canManage(key(Set.of(A)))).isTrue();
		assertThat(scoped.canManage(key(Set.of()))).isFalse();
		assertThat(scoped.canManage(key(Set.of(B)))).isFalse();
		assertThat(scoped.canManage(key(Set.of(A, B)))).isFalse();
		assertThat(caller(EnumSet.of(Scope.ADMIN), Set.of(A, B), null).canManage(key(Set.of(B)))).isTrue();
	}

	@Test
	void aKeyGrantsNoScopeItLacks() {
		Caller writer = caller(EnumSet.of(Scope.WRITE), Set.of(), null);
		assertThatNoException()
			.isThrownBy(() -> writer.requireCanIssue(EnumSet.of(Scope.READ, Scope.WRITE), Set.of(), null));
		assertForbidden(() -> writer.requireCanIssue(EnumSet.of(Scope.ADMIN), Set.of(), null));
	}

	@Test
	void aKeyThatExpiresIssuesNoKeyThatOutlivesIt() {
		Caller expiring = caller(EnumSet.of(Scope.ADMIN), Set.of(), LATER);
		assertThatNoException().isThrownBy(() -> expiring.requireCanIssue(EnumSet.of(Scope.READ), Set.of(), LATER));
		assertForbidden(() -> expiring.requireCanIssue(EnumSet.of(Scope.READ), Set.of(), null));
		assertForbidden(() -> expiring.requireCanIssue(EnumSet.of(Scope.READ), Set.of(), LATER.plusSeconds(1)));
	}

	@Test
	void neverShowsTheKeyHash() {
		assertThat(caller(EnumSet.of(Scope.READ), Set.of(), null).toString()).doesNotContain("secret-hash");
	}

	private static void assertForbidden(Runnable action) {
		assertThatThrownBy(action::run).isInstanceOfSatisfying(ApiException.class,
				(ex) -> assertThat(ex.type()).isEqualTo(ProblemType.FORBIDDEN));
	}

	private static Caller caller(Set<Scope> scopes, Set<UUID> instances, Instant expiresAt) {
		return new Caller(UUID.randomUUID(), "caller", scopes, instances, expiresAt, "secret-hash");
	}

	private static ApiKey key(Set<UUID> instances) {
		return new ApiKey(UUID.randomUUID(), "key", "hash", "jk_", EnumSet.of(Scope.READ), instances, Instant.now(),
				null, null);
	}

}
