package dev.keyright.seats;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The package rules of STYLE.md, where a build checks them: features depend on each other in one
 * direction only (what flows upward is a CDI event), and inside a feature the entity knows nothing of
 * control or boundary, and neither control, entity nor an EJB speaks HTTP. And the entities carry no Bean
 * Validation constraints: the persistence unit does not validate them (persistence.xml, PersistenceUnitTest), so a
 * constraint there would be checked by nothing.
 */
@AnalyzeClasses(packages = "dev.keyright", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule featuresDependOnEachOtherInOneDirection = slices()
            .matching("dev.keyright.seats.(*)..").namingSlices("feature $1")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule entitiesCarryNoBeanValidationConstraints = noClasses()
            .that().areAnnotatedWith(jakarta.persistence.Entity.class)
            .or().areAnnotatedWith(jakarta.persistence.Embeddable.class)
            .or().areAnnotatedWith(jakarta.persistence.MappedSuperclass.class)
            .should().dependOnClassesThat().resideInAPackage("jakarta.validation..")
            .because("persistence.xml sets validation-mode NONE: request bodies are validated where they are bound");

    @ArchTest
    static final ArchRule entitiesKnowNoControlOrBoundary = noClasses()
            .that().resideInAPackage("dev.keyright.seats..entity..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.keyright.seats..control..", "dev.keyright.seats..boundary..");

    @ArchTest
    static final ArchRule controlAndEntitiesSpeakNoHttp = noClasses()
            .that().resideInAnyPackage("dev.keyright.seats..control..", "dev.keyright.seats..entity..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "jakarta.servlet..");

    @ArchTest
    static final ArchRule ejbsSpeakNoHttp = noClasses()
            .that().areAnnotatedWith(jakarta.ejb.Stateless.class)
            .or().areAnnotatedWith(jakarta.ejb.Singleton.class)
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "jakarta.servlet..");

    @ArchTest
    static final ArchRule theSdkKnowsNothingOfTheServer = noClasses()
            .that().resideInAPackage("dev.keyright.client..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.keyright.seats..", "jakarta..");
}
