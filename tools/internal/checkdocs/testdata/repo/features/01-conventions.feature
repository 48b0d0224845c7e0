Feature: Conventions

  @core @CM-1.1
  Scenario: Conventions: the first thing
    Given a setup
    Then it works

  @core @CM-1.2
  Scenario Outline: Conventions: the second thing with <n>
    Given a setup with <n>
    Then it works

    Examples:
      | n |
      | 1 |
      | 2 |
