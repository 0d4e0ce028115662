/**
 * The model platform: {@link dev.audioengine.model.ModelFamily} is the service a family jar provides, {@link
 * dev.audioengine.model.FamilyRegistry} finds the families installed, {@link dev.audioengine.model.ModelLoader} loads a
 * named variant for a task, and {@link dev.audioengine.model.Models} is the short way in for applications.
 */
package dev.audioengine.model;
