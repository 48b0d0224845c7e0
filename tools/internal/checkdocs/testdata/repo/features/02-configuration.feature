Feature: Configuration

  @core @CM-2.1 @CM-1.1
  Scenario: Configuration: tools.codeMode is read
    Given a setup
    Then it works
