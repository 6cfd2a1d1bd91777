package dev.junction.gateway.vkey;

import java.util.List;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** Virtual keys are on when an admin key is configured, or a key database is. */
class VirtualKeysCondition implements Condition {

	@Override
	public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Binder binder = Binder.get(context.getEnvironment());
		List<String> adminKeys = binder.bind("junction.gateway.auth.admin-keys", Bindable.listOf(String.class))
			.orElse(List.of());
		return adminKeys.stream().anyMatch(StringUtils::hasText)
				|| StringUtils.hasText(context.getEnvironment().getProperty(VirtualKeysProperties.PREFIX + ".db.url"));
	}

}
