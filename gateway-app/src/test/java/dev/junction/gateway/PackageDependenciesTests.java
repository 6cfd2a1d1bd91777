package dev.junction.gateway;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** How the gateway's packages may depend on one another. */
class PackageDependenciesTests {

	private static final JavaClasses GATEWAY = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.junction.gateway");

	@Test
	void packagesDependOnEachOtherWithoutCycles() {
		slices().matching("dev.junction.gateway.(*)..").should().beFreeOfCycles().check(GATEWAY);
	}

	@Test
	void theProviderPortKnowsNothingOfConfigurationRoutingThePipelineOrHttp() {
		noClasses().that()
			.resideInAPackage("dev.junction.gateway.provider")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.junction.gateway.config..", "dev.junction.gateway.routing..",
					"dev.junction.gateway.pipeline..", "dev.junction.gateway.chat..", "dev.junction.gateway.rpc..",
					"org.springframework.http..", "org.springframework.web..", "reactor.netty.http.server..")
			.check(GATEWAY);
	}

	@Test
	void noProviderAdapterDependsOnConfigurationOrThePipeline() {
		noClasses().that()
			.resideInAPackage("dev.junction.gateway.provider..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.junction.gateway.config..", "dev.junction.gateway.routing..",
					"dev.junction.gateway.pipeline..", "dev.junction.gateway.chat..")
			.check(GATEWAY);
	}

}
